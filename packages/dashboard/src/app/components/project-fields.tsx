import { Field } from './ui';

export const PLANS = ['free', 'pro', 'enterprise'] as const;
export type PlanName = (typeof PLANS)[number];

type ProjectFieldsProps = {
  name: string;
  onName: (name: string) => void;
  plan: PlanName;
  onPlan: (plan: PlanName) => void;
  description: string;
  onDescription: (description: string) => void;
  descriptionRows: number;
};

/** Name, plan and description of a project: the same fields when creating and when editing one. */
export const ProjectFields = (props: ProjectFieldsProps) => (
  <>
    <Field label="Name">
      <input name="name" required maxLength={200} value={props.name} onInput={(e) => props.onName(e.currentTarget.value)} />
    </Field>
    <Field label="Plan">
      <select name="plan" value={props.plan} onChange={(e) => props.onPlan(e.currentTarget.value as PlanName)}>
        {PLANS.map((p) => (
          <option key={p} value={p}>
            {p}
          </option>
        ))}
      </select>
    </Field>
    <Field label="Description">
      <textarea
        name="description"
        rows={props.descriptionRows}
        maxLength={2000}
        value={props.description}
        onInput={(e) => props.onDescription(e.currentTarget.value)}
      />
    </Field>
  </>
);
