import type { AppTemplate } from '@slipway/contracts';

/**
 * An app template as data: the files seeded into the repository (source of a tiny HTTP service
 * on $PORT, its test and a Dockerfile) and the step that runs the test in the pipeline. The
 * Kubernetes manifests and the Tekton pipeline are made from it per application (render.ts).
 */
export interface TemplateSource {
  id: string;
  name: string;
  description: string;
  language: AppTemplate['language'];
  files: Record<string, string>;
  /** the pipeline's test step: its image and its script, run in the cloned source */
  test: { image: string; script: string };
}

/** The port every template's service listens on unless $PORT says otherwise. */
export const TEMPLATE_PORT = 8080;
