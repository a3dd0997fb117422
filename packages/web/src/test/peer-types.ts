/** Types the test API peers share (a person the peer knows, one answer), in a file that imports none of them. */

export interface PeerUser {
  id: string;
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  verified: boolean;
  code: string;
  /** how the peer says this person signed in (GET /api/profile) */
  signInMethod?: 'password' | 'ldap';
}

/** One answer of a peer: status, body and headers. */
export type Reply = [status: number, body?: unknown, headers?: Record<string, string>];
