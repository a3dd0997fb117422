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
import { DirectorySignInError, type SsoService } from './sso-service.js';

const tags = ['sso'];
/** An organisation has one set of SSO settings, named by the organisation's id: the caller's. */
const ssoSettingsTarget: AuditTarget = {
  type: 'sso_settings',
  id: (request) => request.principal?.organisationId,
};

export function ssoRoutes(service: SsoService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/sso/settings',
      {
        config: { access: inOrganisation('sso:view') },
        schema: {
          tags,
          summary: 'Enterprise single sign-on (LDAP) settings; the bind password is never returned',
          response: { 200: ssoSettingsResponseSchema },
        },
      },
      async (request) => service.settings(request.principal!.organisationId),
    );
    app.put(
      '/api/sso/settings',
      {
        config: {
          access: inOrganisation('sso:edit'),
          auditAction: 'sso.update',
          auditTarget: ssoSettingsTarget,
        },
        schema: {
          tags,
          summary: 'Save the LDAP settings; leave bindPassword out to keep the stored one',
          body: ssoSettingsRequestSchema,
          response: { 200: ssoSettingsResponseSchema },
        },
      },
      async (request) => {
        const organisationId = request.principal!.organisationId;
        const { bindPassword: _secret, ...visible } = request.body;
        request.audit.detail = { ...visible, bindPasswordChanged: Boolean(_secret) };
        return service.save(organisationId, request.body);
      },
    );
    app.post(
      '/api/sso/test',
      {
        config: {
          access: inOrganisation('sso:edit'),
          auditAction: 'sso.test',
          auditTarget: ssoSettingsTarget,
        },
        schema: {
          tags,
          summary: 'Bind to the directory with the saved (or given) settings',
          body: ssoTestRequestSchema,
          response: { 200: ssoTestResponseSchema },
        },
      },
      async (request) => {
        const organisationId = request.principal!.organisationId;
        const result = await service.test(organisationId, request.body ?? undefined);
        request.audit.detail = result;
        return result;
      },
    );
    app.post(
      '/api/auth/ldap_login',
      {
        config: { access: PUBLIC, auditAction: 'auth.ldap_login' },
        schema: {
          tags: ['auth'],
          summary: "Sign in with the organisation's directory (LDAP)",
          body: ldapLoginRequestSchema,
          response: { 200: loginResponseSchema },
        },
      },
      async (request) => {
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
    );
  };
}
