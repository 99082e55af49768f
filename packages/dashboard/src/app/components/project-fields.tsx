import { SelectField, TextAreaField, TextField } from './fields';

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
    <TextField label="Name" name="name" required maxLength={200} value={props.name} onValue={props.onName} />
    <SelectField label="Plan" name="plan" options={PLANS.map((p) => [p, p] as const)} value={props.plan} onValue={props.onPlan} />
    <TextAreaField
      label="Description"
      name="description"
      rows={props.descriptionRows}
      maxLength={2000}
      value={props.description}
      onValue={props.onDescription}
    />
  </>
);
