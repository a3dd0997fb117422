import { createContext, useContext } from 'react';
import { defaultRuntimeSettings, type RuntimeSettings } from '@slipway/contracts';

/** The runtime settings, exposed app-wide as `features` (spec §3). */
export const FeaturesContext = createContext<RuntimeSettings>(defaultRuntimeSettings);

export function useFeatures(): RuntimeSettings {
  return useContext(FeaturesContext);
}
