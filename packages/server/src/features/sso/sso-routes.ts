import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ldapLoginRequestSchema,
  loginResponseSchema,
  ssoSettingsRequestSchema,
  ssoSettingsResponseSchema,
  ssoTestRequestSchema,
  ssoTestResponseSchema,
} from '@slipway/contracts';
import type { AuditTarget } from '../../platform/audit-target.js';
import { inOrganisation, PUBLIC } from '../../platform/auth/principal.js';
import { requestContext } from '../../platform/request-context.js';
import { routes } from '../../platform/routes.js';
import { DirectorySignInError, type SsoService } from './sso-service.js';

/** An organisation has one set of SSO settings, named by the organisation's id: the caller's. */
const ssoSettingsTarget: AuditTarget = {
  type: 'sso_settings',
  id: (request) => request.principal?.organisationId,
};

export function ssoRoutes(service: SsoService): FastifyPluginAsyncZod {
  return async (app) => {
    const sso = routes(app, ['sso']);
    sso.get('/api/sso/settings', {
      summary: 'Enterprise single sign-on (LDAP) settings; the bind password is never returned',
      access: inOrganisation('sso:view'),
      response: ssoSettingsResponseSchema,
      handler: async (request) => service.settings(request.principal!.organisationId),
    });
    const editing = { access: inOrganisation('sso:edit'), auditTarget: ssoSettingsTarget };
    sso.put('/api/sso/settings', {
      ...editing,
      summary: 'Save the LDAP settings; leave bindPassword out to keep the stored one',
      auditAction: 'sso.update',
      body: ssoSettingsRequestSchema,
      response: ssoSettingsResponseSchema,
      handler: async (request) => {
        const { bindPassword: _secret, ...visible } = request.body;
        request.audit.detail = { ...visible, bindPasswordChanged: Boolean(_secret) };
        return service.save(request.principal!.organisationId, request.body);
      },
    });
    sso.post('/api/sso/test', {
      ...editing,
      summary: 'Bind to the directory with the saved (or given) settings',
      auditAction: 'sso.test',
      body: ssoTestRequestSchema,
      response: ssoTestResponseSchema,
      handler: async (request) => {
        const result = await service.test(request.principal!.organisationId, request.body ?? undefined);
        request.audit.detail = result;
        return result;
      },
    });
    sso.post('/api/auth/ldap_login', {
      summary: "Sign in with the organisation's directory (LDAP)",
      tags: ['auth'],
      access: PUBLIC,
      auditAction: 'auth.ldap_login',
      body: ldapLoginRequestSchema,
      response: loginResponseSchema,
      handler: async (request) => {
        const { username, password, organisationId } = request.body;
        request.audit.actorLabel = username;
        if (await service.hasSettings(organisationId)) request.audit.organisationId = organisationId;
        try {
          const { userId, ...login } = await service.ldapLogin(
            organisationId,
            username,
            password,
            requestContext(request),
          );
          // the person is known only once the directory accepted them
          request.audit.targetType = 'user';
          request.audit.targetId = userId;
          return login;
        } catch (err) {
          if (err instanceof DirectorySignInError) request.audit.detail = { reason: err.reason };
          throw err;
        }
      },
    });
  };
}
