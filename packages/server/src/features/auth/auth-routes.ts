import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  changePasswordRequestSchema,
  forgotPasswordRequestSchema,
  loginRequestSchema,
  loginResponseSchema,
  messageResponseSchema,
  profileResponseSchema,
  profileUpdateRequestSchema,
  resendCodeRequestSchema,
  resetPasswordRequestSchema,
  signupRequestSchema,
  signupResponseSchema,
  verifyCodeRequestSchema,
} from '@slipway/contracts';
import { AUTHENTICATED, PUBLIC } from '../../platform/auth/principal.js';
import { personOf, requestContext } from '../../platform/request-context.js';
import { routes } from '../../platform/routes.js';
import type { AuthService } from './auth-service.js';

/** The signed-in person, the target of what they change of their own (a service account has none). */
function selfTarget(request: FastifyRequest) {
  const p = personOf(request.principal);
  // Not declared on the route: the target is the person, and a service account refused above
  // leaves no target in its record.
  request.audit.targetType = 'user';
  request.audit.targetId = p.userId;
  return p;
}

export function authRoutes(service: AuthService): FastifyPluginAsyncZod {
  return async (app) => {
    const auth = routes(app, ['auth']);
    /** A public step of signing up or in, at /api/auth/<step>: its record's actor is the e-mail given. */
    const emailStep = <B extends z.ZodType<{ email: string }>, R extends z.ZodType>(
      step: string,
      spec: { summary: string; body: B; response: R; status?: 201 },
      run: (body: z.output<B>, request: FastifyRequest) => Promise<z.input<R>>,
    ) =>
      auth.post(`/api/auth/${step}`, {
        ...spec,
        access: PUBLIC,
        auditAction: `auth.${step}`,
        handler: async (request) => {
          request.audit.actorLabel = request.body.email;
          return run(request.body as z.output<B>, request);
        },
      });
    emailStep(
      'signup',
      {
        summary: 'Sign up with e-mail and password',
        body: signupRequestSchema,
        response: signupResponseSchema,
        status: 201,
      },
      (body) => service.signup(body),
    );
    emailStep(
      'resend_code',
      {
        summary: 'Send another verification code',
        body: resendCodeRequestSchema,
        response: signupResponseSchema,
      },
      ({ email }) => service.resendCode(email),
    );
    emailStep(
      'verify_code',
      {
        summary: 'Verify the e-mailed code and sign in',
        body: verifyCodeRequestSchema,
        response: loginResponseSchema,
      },
      ({ email, code }, request) => service.verifyCode(email, code, requestContext(request)),
    );
    emailStep(
      'login',
      { summary: 'Sign in', body: loginRequestSchema, response: loginResponseSchema },
      ({ email, password }, request) => service.login(email, password, requestContext(request)),
    );
    auth.post('/api/auth/logout', {
      summary: 'Sign out: the session ends on the server',
      access: AUTHENTICATED,
      auditAction: 'auth.logout',
      status: 204,
      handler: async (request) => {
        if (request.principal?.kind === 'user') await service.logout(request.principal.sessionId);
      },
    });
    emailStep(
      'forgot_password',
      {
        summary: 'Mail a password reset link',
        body: forgotPasswordRequestSchema,
        response: messageResponseSchema,
      },
      ({ email }, request) => service.forgotPassword(email, requestContext(request)),
    );
    auth.post('/api/auth/reset_password', {
      summary: 'Choose a new password with a reset link',
      access: PUBLIC,
      auditAction: 'auth.reset_password',
      body: resetPasswordRequestSchema,
      response: messageResponseSchema,
      handler: async (request) =>
        service.resetPassword(request.body.token, request.body.password, requestContext(request)),
    });

    const profile = routes(app, ['profile']);
    profile.get('/api/profile', {
      summary: 'The signed-in person, their organisations and workspaces',
      access: AUTHENTICATED,
      response: profileResponseSchema,
      handler: async (request) => {
        const p = personOf(request.principal);
        return { ...(await service.profile(p.userId, p.organisationId)), signInMethod: p.origin };
      },
    });
    profile.put('/api/profile', {
      summary: 'Change your name',
      access: AUTHENTICATED,
      auditAction: 'profile.update',
      body: profileUpdateRequestSchema,
      response: profileResponseSchema,
      handler: async (request) => {
        const p = selfTarget(request);
        await service.updateProfile(p.userId, request.body.firstName, request.body.lastName);
        return { ...(await service.profile(p.userId, p.organisationId)), signInMethod: p.origin };
      },
    });
    profile.post('/api/profile/password', {
      summary: 'Change your password; your other sessions end',
      access: AUTHENTICATED,
      auditAction: 'auth.password_change',
      body: changePasswordRequestSchema,
      status: 204,
      handler: async (request) => {
        const p = selfTarget(request);
        await service.changePassword(
          p.userId,
          p.sessionId,
          request.body.currentPassword,
          request.body.newPassword,
        );
      },
    });
  };
}
