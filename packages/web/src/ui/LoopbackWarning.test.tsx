import { describe, expect, it } from 'vitest';
import { isLoopbackUrl } from './LoopbackWarning';

describe('isLoopbackUrl', () => {
  it('knows the addresses that only reach this machine', () => {
    for (const url of [
      'http://127.0.0.1:8080',
      'http://127.1.2.3/hooks/x',
      'http://localhost:3000/x',
      'http://app.localhost',
      'http://[::1]:8080',
      'http://0.0.0.0:8080',
    ])
      expect(isLoopbackUrl(url), url).toBe(true);
    for (const url of [
      'https://slipway.example.com',
      'http://10.0.0.5:8080',
      'http://192.168.1.4',
      'not a url',
    ])
      expect(isLoopbackUrl(url), url).toBe(false);
  });
});
