import TourOutlined from '@mui/icons-material/TourOutlined';
import ListItemIcon from '@mui/material/ListItemIcon';
import MenuItem from '@mui/material/MenuItem';
import { useTranslation } from 'react-i18next';
import { tourStepFromServerStep } from '@slipway/contracts';
import { useAppDispatch } from '../../app/hooks';
import { onboardingUpdated } from '../onboarding/onboarding-slice';
import { onboardingV2Updated } from '../onboarding/onboarding-v2-slice';
import { useSetTourStatusMutation } from './api';
import { TOUR_RESTART_SERVER_STEP } from './useTourMachine';

/**
 * "Take the tour" (user menu): starts the guided tour over from its first step, the microservice
 * library's sidebar entry (on every page).
 */
export function TakeTourMenuItem({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const [setStatus] = useSetTourStatusMutation();
  async function start() {
    onDone();
    // the restart lands before the steps the tour records next (those only move forward)
    await setStatus({ restart: true, currentstep: TOUR_RESTART_SERVER_STEP })
      .unwrap()
      .catch(() => undefined);
    dispatch(onboardingUpdated({ showGuide: true, tourComplete: false }));
    dispatch(
      onboardingV2Updated({
        isTourOpen: true,
        isOnboardingInProgress: true,
        isOnboardingSkipped: false,
        currentStep: tourStepFromServerStep(TOUR_RESTART_SERVER_STEP),
      }),
    );
  }
  return (
    <MenuItem onClick={() => void start()} data-testid="take-tour">
      <ListItemIcon>
        <TourOutlined fontSize="small" aria-hidden />
      </ListItemIcon>
      {t('tour.take')}
    </MenuItem>
  );
}
