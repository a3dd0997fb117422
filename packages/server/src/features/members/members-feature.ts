import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDb } from '../../platform/database/database.js';
import type { Mailer } from '../../platform/mail.js';
import type { AuthService } from '../auth/auth-service.js';
import { AuthStore } from '../auth/auth-store.js';
import { Throttle } from '../auth/throttle.js';
import { RolesStore } from '../roles/roles-store.js';
import { inviteRoutes } from './invites-routes.js';
import { InvitesService } from './invites-service.js';
import { InvitesStore } from './invites-store.js';
import { memberRoutes } from './members-routes.js';
import { MembersService } from './members-service.js';
import { MembersStore } from './members-store.js';
import { workspaceMemberRoutes } from './workspace-members-routes.js';
import { WorkspaceMembersService } from './workspace-members-service.js';

/** The one place members and invites are wired. */
export function membersFeature(deps: { db: AppDb; auth: AuthService; mailer: Mailer; publicUrl: string }) {
  const members = new MembersStore(deps.db);
  const roles = new RolesStore(deps.db);
  const invites = new InvitesService(
    new InvitesStore(deps.db),
    members,
    roles,
    new AuthStore(deps.db),
    deps.auth,
    deps.mailer,
    deps.publicUrl,
    new Throttle(deps.db),
  );
  const plugin: FastifyPluginAsyncZod = async (app) => {
    await app.register(memberRoutes(new MembersService(members, roles)));
    await app.register(inviteRoutes(invites));
    await app.register(workspaceMemberRoutes(new WorkspaceMembersService(members, roles)));
  };
  return plugin;
}
