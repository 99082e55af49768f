import { AppError } from '@palaver/contracts';
import { logger } from '@palaver/platform';
import * as oidc from 'openid-client';

export interface SsoSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** What the browser carries between the start and the callback (kept in the KV store, never in the URL). */
export interface SsoAttempt {
  state: string;
  nonce: string;
  codeVerifier: string;
  redirectUri: string;
}

/** An http issuer is allowed on loopback only: a test's or a developer's local provider. */
const isLoopback = (url: URL): boolean => ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);

/**
 * Single sign-on with an OpenID Connect provider (authorization code with PKCE, state and nonce).
 * The provider's metadata is discovered at the first sign-in and kept; a failed discovery is
 * tried again at the next.
 */
export class SsoClient {
  private configuration: Promise<oidc.Configuration> | null = null;

  constructor(private readonly settings: SsoSettings) {}

  async start(redirectUri: string): Promise<{ url: string; attempt: SsoAttempt }> {
    const config = await this.config();
    const attempt: SsoAttempt = {
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      codeVerifier: oidc.randomPKCECodeVerifier(),
      redirectUri,
    };
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid email profile',
      state: attempt.state,
      nonce: attempt.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(attempt.codeVerifier),
      code_challenge_method: 'S256',
    });
    return { url: url.href, attempt };
  }

  /** The verified email and name the provider vouches for; UNAUTHORIZED otherwise. */
  async finish(callbackUrl: URL, attempt: SsoAttempt): Promise<{ email: string; name: string; issuer: string }> {
    const config = await this.config();
    let claims: Record<string, unknown> | undefined;
    try {
      const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: attempt.codeVerifier,
        expectedState: attempt.state,
        expectedNonce: attempt.nonce,
        idTokenExpected: true,
      });
      const idToken = tokens.claims();
      if (!idToken) throw new Error('no ID token');
      claims = { ...idToken };
      // Many providers put email and name only in the userinfo answer, not in the ID token.
      if (typeof claims.email !== 'string' || claims.email_verified === undefined) {
        claims = { ...claims, ...(await oidc.fetchUserInfo(config, tokens.access_token, idToken.sub)) };
      }
    } catch (err) {
      logger.warn({ err }, 'single sign-on refused');
      throw new AppError('UNAUTHORIZED', 'single sign-on failed: try again');
    }
    const email = typeof claims?.email === 'string' ? claims.email : null;
    if (!email || claims?.email_verified !== true) {
      throw new AppError('UNAUTHORIZED', 'the identity provider did not vouch for a verified email');
    }
    const name = typeof claims?.name === 'string' ? claims.name : email;
    return { email, name, issuer: this.settings.issuer };
  }

  private config(): Promise<oidc.Configuration> {
    if (!this.configuration) {
      const issuer = new URL(this.settings.issuer);
      this.configuration = oidc
        .discovery(
          issuer,
          this.settings.clientId,
          this.settings.clientSecret,
          undefined,
          issuer.protocol === 'http:' && isLoopback(issuer) ? { execute: [oidc.allowInsecureRequests] } : undefined,
        )
        .catch((err: unknown) => {
          this.configuration = null;
          logger.warn({ err }, 'OpenID Connect discovery failed');
          throw new AppError('SERVICE_UNAVAILABLE', 'the identity provider cannot be reached');
        });
    }
    return this.configuration;
  }
}
