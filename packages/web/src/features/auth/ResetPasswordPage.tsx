import { NewPasswordForm } from './NewPasswordForm';

/** /reset-password?token=…: the link from the "forgot password" mail. */
export default function ResetPasswordPage() {
  return <NewPasswordForm mode="reset" />;
}
