// A real OpenID Connect provider for the sign-in tests: the certified `oidc-provider` package on
// loopback, with one confidential client (Authorization Code + PKCE) and the users of a JSON file
// (read at each login, so a test can take a user out of a group). Its development login form takes
// any username that the file holds. Prints {"issuer": ...} on its first line once it listens.
//   node tests/support/oidc_provider.mjs USERS_JSON REDIRECT_URI
import http from 'node:http';
import fs from 'node:fs';
import Provider from 'oidc-provider';

const [usersFile, redirectUri] = process.argv.slice(2);
const server = http.createServer();
server.listen(0, '127.0.0.1', () => {
  const issuer = `http://127.0.0.1:${server.address().port}`;
  const provider = new Provider(issuer, {
    clients: [{
      client_id: 'tramite', client_secret: 'tramite-test-secret', redirect_uris: [redirectUri],
      grant_types: ['authorization_code'], response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    }],
    async findAccount(ctx, id) {
      const users = JSON.parse(fs.readFileSync(usersFile, 'utf8'));
      const user = users[id];
      if (!user) return undefined;
      return {
        accountId: id,
        async claims() {
          return { sub: id, preferred_username: id, name: user.name, groups: user.groups, office: user.office };
        },
      };
    },
    claims: { openid: ['sub'], profile: ['name', 'preferred_username'], groups: ['groups'], office: ['office'] },
    scopes: ['openid', 'profile', 'groups', 'office'],
    conformIdTokenClaims: false,  // the groups travel in the id_token, as Entra ID and Keycloak send them
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => true },
    cookies: { keys: ['tramite-test-cookie-key'] },
  });
  provider.on('server_error', (ctx, err) => console.error('server_error', err));
  server.on('request', provider.callback());
  process.stdout.write(JSON.stringify({ issuer }) + '\n');
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
