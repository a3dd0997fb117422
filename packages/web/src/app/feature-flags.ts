import { createContext, useContext } from 'react';

/** Flag name → enabled. Empty when the feature-flag service is off. */
export type FlagValues = Readonly<Record<string, boolean>>;

export const FeatureFlagsContext = createContext<FlagValues>({});

/** Whether a feature flag is on; false when unknown or when Unleash is not enabled. */
export function useFeatureFlag(name: string): boolean {
  return useContext(FeatureFlagsContext)[name] ?? false;
}
