import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
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
import type { AuthService } from './auth-service.js';

const tags = ['auth'];

export function authRoutes(service: AuthService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/auth/signup',
      {
        config: { access: PUBLIC, auditAction: 'auth.signup' },
        schema: {
          tags,
          summary: 'Sign up with e-mail and password',
          body: signupRequestSchema,
          response: { 201: signupResponseSchema },
        },
      },
      async (request, reply) => {
        request.audit.actorLabel = request.body.email;
        return reply.code(201).send(await service.signup(request.body));
      },
    );
    app.post(
      '/api/auth/resend_code',
      {
        config: { access: PUBLIC, auditAction: 'auth.resend_code' },
        schema: {
          tags,
          summary: 'Send another verification code',
          body: resendCodeRequestSchema,
          response: { 200: signupResponseSchema },
        },
      },
      async (request) => {
        request.audit.actorLabel = request.body.email;
        return service.resendCode(request.body.email);
      },
    );
    app.post(
      '/api/auth/verify_code',
      {
        config: { access: PUBLIC, auditAction: 'auth.verify_code' },
        schema: {
          tags,
          summary: 'Verify the e-mailed code and sign in',
          body: verifyCodeRequestSchema,
          response: { 200: loginResponseSchema },
        },
      },
      async (request) => {
        request.audit.actorLabel = request.body.email;
        return service.verifyCode(request.body.email, request.body.code, requestContext(request));
      },
    );
    app.post(
      '/api/auth/login',
      {
        config: { access: PUBLIC, auditAction: 'auth.login' },
        schema: {
          tags,
          summary: 'Sign in',
          body: loginRequestSchema,
          response: { 200: loginResponseSchema },
        },
      },
      async (request) => {
        request.audit.actorLabel = request.body.email;
        return service.login(request.body.email, request.body.password, requestContext(request));
      },
    );
    app.post(
      '/api/auth/logout',
      {
        config: { access: AUTHENTICATED, auditAction: 'auth.logout' },
        schema: { tags, summary: 'Sign out: the session ends on the server', response: { 204: z.null() } },
      },
      async (request, reply) => {
        if (request.principal?.kind === 'user') await service.logout(request.principal.sessionId);
        return reply.code(204).send(null);
      },
    );
    app.post(
      '/api/auth/forgot_password',
      {
        config: { access: PUBLIC, auditAction: 'auth.forgot_password' },
        schema: {
          tags,
          summary: 'Mail a password reset link',
          body: forgotPasswordRequestSchema,
          response: { 200: messageResponseSchema },
        },
      },
      async (request) => {
        request.audit.actorLabel = request.body.email;
        return service.forgotPassword(request.body.email, requestContext(request));
      },
    );
    app.post(
      '/api/auth/reset_password',
      {
        config: { access: PUBLIC, auditAction: 'auth.reset_password' },
        schema: {
          tags,
          summary: 'Choose a new password with a reset link',
          body: resetPasswordRequestSchema,
          response: { 200: messageResponseSchema },
        },
      },
      async (request) =>
        service.resetPassword(request.body.token, request.body.password, requestContext(request)),
    );
    app.get(
      '/api/profile',
      {
        config: { access: AUTHENTICATED },
        schema: {
          tags: ['profile'],
          summary: 'The signed-in person, their organisations and workspaces',
          response: { 200: profileResponseSchema },
        },
      },
      async (request) => {
        const p = personOf(request.principal);
        return { ...(await service.profile(p.userId, p.organisationId)), signInMethod: p.origin };
      },
    );
    app.put(
      '/api/profile',
      {
        config: { access: AUTHENTICATED, auditAction: 'profile.update' },
        schema: {
          tags: ['profile'],
          summary: 'Change your name',
          body: profileUpdateRequestSchema,
          response: { 200: profileResponseSchema },
        },
      },
      async (request) => {
        const p = personOf(request.principal);
        // Not declared on the route: the target is the person, and a service account refused above
        // leaves no target in its record.
        request.audit.targetType = 'user';
        request.audit.targetId = p.userId;
        await service.updateProfile(p.userId, request.body.firstName, request.body.lastName);
        return { ...(await service.profile(p.userId, p.organisationId)), signInMethod: p.origin };
      },
    );
    app.post(
      '/api/profile/password',
      {
        config: { access: AUTHENTICATED, auditAction: 'auth.password_change' },
        schema: {
          tags: ['profile'],
          summary: 'Change your password; your other sessions end',
          body: changePasswordRequestSchema,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        const p = personOf(request.principal);
        // Not declared on the route: the target is the person, and a service account refused above
        // leaves no target in its record.
        request.audit.targetType = 'user';
        request.audit.targetId = p.userId;
        await service.changePassword(
          p.userId,
          p.sessionId,
          request.body.currentPassword,
          request.body.newPassword,
        );
        return reply.code(204).send(null);
      },
    );
  };
}
