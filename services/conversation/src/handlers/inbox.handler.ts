import { InboxMessages as M } from '@palaver/contracts';
import { messageHandlers } from '@palaver/platform';
import { AgentNoteService } from '../services/agent-note.service';
import { VisitorContextService } from '../services/visitor-context.service';

/** The inbox's reads and writes beside the handoff: internal notes and the visitor panel. */
export const InboxHandler = messageHandlers('InboxHandler', { notes: AgentNoteService, visitors: VisitorContextService }, (on) => [
  on(M.addNote, ({ notes }, req) => notes.add(req)),
  on(M.listNotes, ({ notes }, req) => notes.list(req)),
  on(M.visitorContext, ({ visitors }, req) => visitors.of(req)),
]);
