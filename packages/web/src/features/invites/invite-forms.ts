import { z } from 'zod';
import { MESSAGES, nameSchema, passwordSchema } from '@slipway/contracts';

/** A new person's answer to an invite: name, and a password typed twice. */
export const newMemberSchema = z
  .object({
    firstName: nameSchema(),
    lastName: nameSchema(),
    password: passwordSchema,
    confirmPassword: z
      .string({ message: MESSAGES.confirmPasswordRequired })
      .min(1, MESSAGES.confirmPasswordRequired),
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: MESSAGES.passwordsMustMatch,
    path: ['confirmPassword'],
  });

/** Someone who already has an account proves it with their password. */
export const existingMemberSchema = z.object({
  password: z.string({ message: MESSAGES.passwordRequired }).min(1, MESSAGES.passwordRequired),
});
