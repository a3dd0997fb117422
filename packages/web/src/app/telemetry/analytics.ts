/**
 * The app's analytics facade: identify, track and add-user-property go to Heap when it is
 * switched on, and nowhere otherwise. Nothing else in the app talks to Heap directly.
 */
export const analytics = {
  identify(identity: string) {
    window.heap?.identify(identity);
  },
  track(event: string, properties?: Record<string, unknown>) {
    window.heap?.track(event, properties);
  },
  addUserProperties(properties: Record<string, unknown>) {
    window.heap?.addUserProperties(properties);
  },
  resetIdentity() {
    window.heap?.resetIdentity();
  },
};
