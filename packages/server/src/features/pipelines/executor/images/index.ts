export { ImagePullError, type ImagePullErrorCode } from './errors.js';
export { ImageStore } from './image-store.js';
export { defaultPlatform, MANIFEST_ACCEPT } from './manifest.js';
export { canonicalReference, parseImageReference, type ImageReference } from './reference.js';
export { resolveStepCommand, StepCommandError } from './resolve-step-command.js';
export type {
  ImageConfig,
  ImageStoreOptions,
  Platform,
  PulledImage,
  RegistryAuth,
  RegistryCredentials,
} from './types.js';
