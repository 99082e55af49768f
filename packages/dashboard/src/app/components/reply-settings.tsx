import { fieldOf, TextAreaField, TextField, Toggle } from './fields';
import { Card } from './ui';

export interface ReplySettingsValue {
  handoffEnabled: boolean;
  /** One phrase a line; empty: the built-in phrases. */
  triggerPhrases: string;
  /** Told to a visitor asking for a person when nobody can answer; empty: the built-in message. */
  offlineMessage: string;
  qnaOverrideEnabled: boolean;
  /** The Q&A override's minimum similarity, as typed (0.5 to 1). */
  qnaMinScore: string;
}

export const replySettingsOf = (project: {
  handoff: { enabled: boolean; triggerPhrases: string[]; offlineMessage?: string | null };
  qnaOverride: { enabled: boolean; minScore: number };
}): ReplySettingsValue => ({
  handoffEnabled: project.handoff.enabled,
  triggerPhrases: project.handoff.triggerPhrases.join('\n'),
  offlineMessage: project.handoff.offlineMessage ?? '',
  qnaOverrideEnabled: project.qnaOverride.enabled,
  qnaMinScore: String(project.qnaOverride.minScore),
});

/** The PATCH fields of the two settings. */
export const replySettingsBody = (value: ReplySettingsValue) => ({
  handoff: {
    enabled: value.handoffEnabled,
    triggerPhrases: value.triggerPhrases
      .split('\n')
      .map((p) => p.trim())
      .filter(Boolean),
    offlineMessage: value.offlineMessage.trim() || null,
  },
  qnaOverride: { enabled: value.qnaOverrideEnabled, minScore: Number(value.qnaMinScore) },
});

/** Handoff to a person and Q&A answers that override the model, on the Settings page. */
export const ReplySettings = ({ value, onChange }: { value: ReplySettingsValue; onChange: (next: ReplySettingsValue) => void }) => {
  const set = <K extends keyof ReplySettingsValue>(key: K, v: ReplySettingsValue[K]) => onChange({ ...value, [key]: v });
  const field = <K extends keyof ReplySettingsValue>(key: K) => fieldOf(value, onChange, key);
  return (
    <>
      <Card title="Handoff to a person">
        <div class="form-grid">
          <Toggle name="handoffEnabled" checked={value.handoffEnabled} onChecked={(on) => set('handoffEnabled', on)}>
            Visitors can ask for a person (the conversation waits in the inbox)
          </Toggle>
          <TextAreaField
            label="Trigger phrases"
            hint="One a line, matched as whole words in any case. Empty: the built-in phrases (“talk to a human”…)."
            rows={3}
            disabled={!value.handoffEnabled}
            {...field('triggerPhrases')}
          />
          <TextAreaField
            label="When nobody can answer"
            hint="Told at once to a visitor who asks for a person when no agent is online or it is outside opening hours; the widget then offers to leave an email. Empty: the built-in message."
            rows={2}
            maxLength={1000}
            disabled={!value.handoffEnabled}
            {...field('offlineMessage')}
          />
        </div>
      </Card>
      <Card title="Q&A answers">
        <div class="form-grid">
          <Toggle name="qnaOverrideEnabled" checked={value.qnaOverrideEnabled} onChecked={(on) => set('qnaOverrideEnabled', on)}>
            Answer with a Q&A entry word for word, without the model, when the question matches it closely
          </Toggle>
          <TextField
            label="Minimum similarity"
            hint="0.5 to 1: higher needs a closer match. At 0.9 only the entry's question and near-identical wordings; below, looser rephrasings too."
            type="number"
            min={0.5}
            max={1}
            step={0.01}
            disabled={!value.qnaOverrideEnabled}
            {...field('qnaMinScore')}
          />
        </div>
      </Card>
    </>
  );
};
