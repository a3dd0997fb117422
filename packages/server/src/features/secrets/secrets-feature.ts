import type { FastifyPluginAsync } from 'fastify';
import type { AppDb } from '../../platform/database/database.js';
import type { Feature } from '../../platform/feature.js';
import type { Keys } from '../../platform/keys.js';
import { SecretReader } from './secret-reader.js';
import { secretRoutes } from './secrets-routes.js';
import { SecretsService } from './secrets-service.js';
import { SqlSecretsStore } from './secrets-store.js';
import { variableRoutes } from './variables-routes.js';
import { VariablesService } from './variables-service.js';
import { SqlVariablesStore } from './variables-store.js';

export interface SecretsFeatureDeps {
  db: AppDb;
  keys: Keys;
}

export interface SecretsExports {
  /** for the run engine: decrypted values for secretKeyRef env, files and masking */
  reader: SecretReader;
  variables: VariablesService;
  /** the workspace's secrets (quick setup stores the credentials its pipeline needs) */
  service: SecretsService;
}

/** The one place secrets and variables are wired. */
export function createSecretsFeature(deps: SecretsFeatureDeps): Feature<SecretsExports> {
  const store = new SqlSecretsStore(deps.db);
  const secrets = new SecretsService(store, deps.keys);
  const variables = new VariablesService(new SqlVariablesStore(deps.db));
  const plugin: FastifyPluginAsync = async (app) => {
    await app.register(secretRoutes(secrets));
    await app.register(variableRoutes(variables));
  };
  return {
    name: 'secrets',
    plugin,
    exports: { reader: new SecretReader(store, deps.keys), variables, service: secrets },
  };
}
