import type { FastifyPluginAsync } from 'fastify';
import type { AppDb } from '../../platform/database/database.js';
import type { Feature } from '../../platform/feature.js';
import type { Mailer } from '../../platform/mail.js';
import type { AuthService } from '../auth/auth-service.js';
import type { AuthStore } from '../auth/auth-store.js';
import type { Throttle } from '../auth/throttle.js';
import type { RolesStore } from '../roles/roles-store.js';
import { inviteRoutes } from './invites-routes.js';
import { InvitesService } from './invites-service.js';
import { SqlInvitesStore } from './invites-store.js';
import { memberRoutes } from './members-routes.js';
import { MembersService } from './members-service.js';
import { SqlMembersStore } from './members-store.js';
import { workspaceMemberRoutes } from './workspace-members-routes.js';
import { WorkspaceMembersService } from './workspace-members-service.js';

export interface MembersFeatureDeps {
  db: AppDb;
  /** the auth feature's service, store and throttle: an accepted invite signs its person in */
  auth: AuthService;
  people: AuthStore;
  throttle: Throttle;
  /** the roles feature's store */
  roles: RolesStore;
  mailer: Mailer;
  publicUrl: string;
}

/** The one place members and invites are wired. */
export function createMembersFeature(deps: MembersFeatureDeps): Feature {
  const members = new SqlMembersStore(deps.db);
  const invites = new InvitesService(
    new SqlInvitesStore(deps.db),
    members,
    deps.roles,
    deps.people,
    deps.auth,
    deps.mailer,
    deps.publicUrl,
    deps.throttle,
  );
  const plugin: FastifyPluginAsync = async (app) => {
    await app.register(memberRoutes(new MembersService(members, deps.roles)));
    await app.register(inviteRoutes(invites));
    await app.register(workspaceMemberRoutes(new WorkspaceMembersService(members, deps.roles)));
  };
  return { name: 'members', plugin, exports: {} };
}
