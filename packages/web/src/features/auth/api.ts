import type { z } from 'zod';
import type {
  forgotPasswordRequestSchema,
  ldapLoginRequestSchema,
  LoginRequest,
  LoginResponse,
  messageResponseSchema,
  resendCodeRequestSchema,
  resetPasswordRequestSchema,
  SignupRequest,
  signupResponseSchema,
  verifyCodeRequestSchema,
} from '@slipway/contracts';
import { api } from '../../app/api';

export type SignupResponse = z.infer<typeof signupResponseSchema>;
export type VerifyCodeRequest = z.infer<typeof verifyCodeRequestSchema>;
export type ResendCodeRequest = z.infer<typeof resendCodeRequestSchema>;
export type ForgotPasswordRequest = z.infer<typeof forgotPasswordRequestSchema>;
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequestSchema>;
export type MessageResponse = z.infer<typeof messageResponseSchema>;

export type OAuthProviderId = 'google' | 'azure';
export interface OAuthProvider {
  id: OAuthProviderId;
  name: string;
}
export type OAuthIntent = 'login' | 'signup';

/** Sign-up, verification, sign-in, password recovery and single sign-on (`/api/auth/`). */
export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    signup: build.mutation<SignupResponse, SignupRequest>({
      query: (body) => ({ url: 'auth/signup', method: 'POST', body }),
    }),
    verifyCode: build.mutation<LoginResponse, VerifyCodeRequest>({
      query: (body) => ({ url: 'auth/verify_code', method: 'POST', body }),
    }),
    resendCode: build.mutation<SignupResponse, ResendCodeRequest>({
      query: (body) => ({ url: 'auth/resend_code', method: 'POST', body }),
    }),
    login: build.mutation<LoginResponse, LoginRequest>({
      query: (body) => ({ url: 'auth/login', method: 'POST', body }),
    }),
    // spec §7 "ldap login": the organisation's directory checks the username and password
    ldapLogin: build.mutation<LoginResponse, z.infer<typeof ldapLoginRequestSchema>>({
      query: (body) => ({ url: 'auth/ldap_login', method: 'POST', body }),
    }),
    logout: build.mutation<void, void>({
      query: () => ({ url: 'auth/logout', method: 'POST' }),
    }),
    forgotPassword: build.mutation<MessageResponse, ForgotPasswordRequest>({
      query: (body) => ({ url: 'auth/forgot_password', method: 'POST', body }),
    }),
    resetPassword: build.mutation<MessageResponse, ResetPasswordRequest>({
      query: (body) => ({ url: 'auth/reset_password', method: 'POST', body }),
    }),
    oauthProviders: build.query<OAuthProvider[], void>({
      query: () => 'auth/oauth/providers',
    }),
    /** A fresh authorisation URL each time (it carries single-use state), so never cached. */
    oauthLoginUrl: build.mutation<{ url: string }, { provider: OAuthProviderId; intent: OAuthIntent }>({
      query: (params) => ({ url: 'auth/oauth/login_url', params }),
    }),
    /** The provider's round trip ends with a one-time code; this trades it for the session. */
    oauthExchange: build.mutation<LoginResponse, { code: string }>({
      query: (body) => ({ url: 'auth/oauth/exchange', method: 'POST', body }),
    }),
  }),
});

export const {
  useSignupMutation,
  useVerifyCodeMutation,
  useResendCodeMutation,
  useLoginMutation,
  useLdapLoginMutation,
  useLogoutMutation,
  useForgotPasswordMutation,
  useResetPasswordMutation,
  useOauthProvidersQuery,
  useOauthLoginUrlMutation,
  useOauthExchangeMutation,
} = authApi;
