// input_token and appsecret_proof: Facebook's token check (Graph API), should such a URL ever reach a log.
// Any other name holding password, secret, token or otp (mfa_token, backup codes' otp, a password
// someone put in a link): no flow sends them in an address, but a client may, and logs keep it.
const SECRET_PARAMS =
  /^(code|challenge|authnChallenge|authn_challenge|oauth_challenge|state|token|access_token|input_token|appsecret_proof|id_token|id_token_hint|refresh_token|login_hint|client_secret|code_verifier|xsrf|backup_code)$|password|secret|token|otp/i;

/** A request URL fit for logs: secret query values and login-flow challenges replaced. */
export function redactUrl(url: string): string {
  const [path = '', query] = url.split('?', 2);
  const safePath = path
    .replace(/(\/requests\/(?:login|logout)\/)[^/]+/, '$1[redacted]')
    .replace(/(\/oidc\/(?:auth|interaction)\/)[^/]+/, '$1[redacted]')
    // A device sign-in request (the verify-device page reads it); not the poll.
    .replace(/(\/api\/v2\/device-login\/)(?!poll$)[^/]+/, '$1[redacted]');
  if (!query) return safePath;
  const params = new URLSearchParams(query);
  for (const key of [...params.keys()]) if (SECRET_PARAMS.test(key)) params.set(key, '[redacted]');
  return `${safePath}?${params.toString()}`;
}
