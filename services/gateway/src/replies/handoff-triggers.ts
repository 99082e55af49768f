import type { ProjectRecord } from '@palaver/contracts';

/** What the conversation service needs of the project's handoff setting: its phrases ([] = built-in), or null when off. */
export const handoffTriggersOf = (project: ProjectRecord): string[] | null =>
  project.handoff.enabled ? project.handoff.triggerPhrases : null;
