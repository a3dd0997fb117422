import { createListenerMiddleware } from '@reduxjs/toolkit';
import { loggedOut, signedIn } from '../../features/auth/auth-slice';
import { analytics } from './analytics';

/** Sign-in identifies the user, records their properties and tracks the event; logout resets. */
export const analyticsListener = createListenerMiddleware();

analyticsListener.startListening({
  actionCreator: signedIn,
  effect: ({ payload }) => {
    analytics.identify(payload.user.email ?? payload.user.id);
    analytics.addUserProperties({
      userId: payload.user.id,
      ...(payload.user.email ? { email: payload.user.email } : {}),
      ...(payload.user.name ? { name: payload.user.name } : {}),
      ...(payload.projectId ? { projectId: payload.projectId } : {}),
    });
    analytics.track('Signed in');
  },
});

analyticsListener.startListening({
  actionCreator: loggedOut,
  effect: () => {
    analytics.track('Signed out');
    analytics.resetIdentity();
  },
});
