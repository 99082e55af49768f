import { SelectField, TextAreaField, TextField } from './fields';

export const PLANS = ['free', 'pro', 'enterprise'] as const;
export type PlanName = (typeof PLANS)[number];

/** A project's name, plan and description as they are being edited. */
export type ProjectDraft = { name: string; plan: PlanName; description: string };

/** Name, plan and description of a project: the same fields when creating and when editing one. */
export const ProjectFields = ({
  value,
  onChange,
  descriptionRows,
}: {
  value: ProjectDraft;
  onChange: (next: ProjectDraft) => void;
  descriptionRows: number;
}) => {
  const set =
    <K extends keyof ProjectDraft>(key: K) =>
    (next: ProjectDraft[K]) =>
      onChange({ ...value, [key]: next });
  return (
    <>
      <TextField label="Name" name="name" required maxLength={200} value={value.name} onValue={set('name')} />
      <SelectField label="Plan" name="plan" options={PLANS.map((p) => [p, p] as const)} value={value.plan} onValue={set('plan')} />
      <TextAreaField
        label="Description"
        name="description"
        rows={descriptionRows}
        maxLength={2000}
        value={value.description}
        onValue={set('description')}
      />
    </>
  );
};
