import { describe, expect, it } from 'vitest';
import { redactUrl } from './redact-url.ts';

describe('redactUrl', () => {
  it('hides every secret-looking query value, whatever the route, and keeps the rest', () => {
    const logged = redactUrl('/activate?code=111&otp=SECRETOTP&password=SECRETPW&new_password=NEWPW&mfa_token=MFA&backup_code=BACKUP&client_assertion_token=JWT&locale=en');
    for (const secret of ['111', 'SECRETOTP', 'SECRETPW', 'NEWPW', 'MFA', 'BACKUP', 'JWT']) expect(logged).not.toContain(secret);
    expect(logged).toContain('locale=en');
    expect(redactUrl('/oidc/auth/abc123?client_id=demo-app')).toBe('/oidc/auth/[redacted]?client_id=demo-app');
  });
});
