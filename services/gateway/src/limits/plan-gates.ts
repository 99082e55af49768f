import { AppError, type Plan, type ProjectRecord } from '@palaver/contracts';

const RANK: Record<Plan, number> = { free: 0, pro: 1, enterprise: 2 };

/** Features that need more than the free plan. */
export const FEATURE_PLANS = {
  chat_completions: 'pro',
} as const satisfies Record<string, Plan>;

export type Feature = keyof typeof FEATURE_PLANS;

/** 402 PAYMENT_REQUIRED unless the project's plan includes the feature. */
export const requireFeature = (project: ProjectRecord, feature: Feature): void => {
  const requiredPlan = FEATURE_PLANS[feature];
  if (RANK[project.plan] >= RANK[requiredPlan]) return;
  throw new AppError('PAYMENT_REQUIRED', `${feature} needs the ${requiredPlan} plan or higher`, {
    currentPlan: project.plan,
    requiredPlan,
    feature,
  });
};
