import { randomBytes } from 'node:crypto';

// Issue 19 (finding 6): the secret fixtures. Every secret is assembled at run time from split pieces, so this
// repository carries no token shape that a secret scanner (or codescout's own policy) would flag.

/** A fixture file and the reason the secret policy must skip it with. */
export interface SecretFixture {
  readonly path: string;
  readonly content: string;
  readonly reason: string;
}

/** Random characters with digits and both cases: what provider keys look like. */
function randomKey(length: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(length);
  const body = Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
  return `Aa1${body.slice(3)}`;
}

/** A PEM private-key block with a random (not a real key) body, lines joined by `eol`. */
function pemBlock(kind: string, eol: string): string {
  const body = randomBytes(96).toString('base64');
  const dashes = '-'.repeat(5);
  return [`${dashes}BEGIN ${kind}PRIVATE KEY${dashes}`, body.slice(0, 64), body.slice(64), `${dashes}END ${kind}PRIVATE KEY${dashes}`].join(eol);
}

const stripeLive = (): string => `sk_${'live'}_${randomKey(24)}`;
const awsKeyId = (): string => `AKI${'A'}${randomKey(16).toUpperCase()}`;
const githubToken = (): string => `gh${'p'}_${randomKey(36)}`;
const slackToken = (): string => `xox${'b'}-123456789012-1234567890123-${randomKey(24)}`;
const googleKey = (): string => `AI${'za'}Sy${randomKey(33)}`;
const openAiKey = (): string => `s${'k'}-proj-${randomKey(48)}`;

/** One fixture per rule; `reason` is exactly what `report.skipped` must say. */
export function secretFixtures(): SecretFixture[] {
  return [
    // The files named in the issue.
    { path: 'config/credentials.json', content: `{\n  "type": "service_account",\n  "private_key": "${pemBlock('', '\\n')}"\n}\n`, reason: 'secret: credentials file (credentials*)' },
    { path: 'deploy/secrets.yaml', content: `stripe:\n  key: ${stripeLive()}\n`, reason: 'secret: secret file (*secret*)' },
    { path: 'src/main/resources/application.properties', content: 'server.port=8080\nspring.datasource.url=jdbc:postgresql://db/app\nspring.datasource.password=Tr0ub4dor&3x\n', reason: 'secret: password assignment (line 3)' },
    { path: 'docker-compose.yml', content: 'services:\n  db:\n    image: postgres:16\n    environment:\n      - POSTGRES_USER=app\n      - POSTGRES_PASSWORD=s3cr3t-Pa55word\n', reason: 'secret: password assignment (line 6)' },
    { path: 'mysite/settings.py', content: "import os\n\nDEBUG = False\nSECRET_KEY = 'django-insecure-8x$2kq!v0z#m4r@7p1w&n6t'\n", reason: 'secret: password assignment (line 4)' },
    { path: '.dockerconfigjson', content: `{"auths":{"registry.example.com":{"auth":"${Buffer.from('bot:pw').toString('base64')}"}}}\n`, reason: 'secret: credentials file (.dockerconfigjson)' },
    { path: '.dockerconfig.json', content: '{"auths":{}}\n', reason: 'secret: credentials file (.dockerconfig.json)' },
    { path: '.env', content: `DATABASE_URL=postgres://app@db/app\nSTRIPE_KEY=${stripeLive()}\n`, reason: 'secret: environment file (.env*)' },
    { path: '.env.production', content: 'API_TOKEN=abc\n', reason: 'secret: environment file (.env*)' },
    { path: 'keys/id_rsa', content: `${pemBlock('OPENSSH ', '\n')}\n`, reason: 'secret: SSH private key (id_*)' },
    { path: 'keys/id_ed25519_work.old', content: 'key\n', reason: 'secret: SSH private key (id_*)' },
    { path: 'certs/server.pem', content: `${pemBlock('RSA ', '\n')}\n`, reason: 'secret: key file (*.pem)' },
    { path: 'certs/server.key', content: 'key\n', reason: 'secret: key file (*.key)' },
    { path: 'certs/client.p12', content: 'binary\n', reason: 'secret: key file (*.p12)' },
    { path: 'android/release.keystore', content: 'binary\n', reason: 'secret: key file (*.keystore)' },
    { path: '.npmrc', content: '//registry.npmjs.org/:_authToken=abc\n', reason: 'secret: credentials file (.npmrc)' },
    { path: '.netrc', content: 'machine example.com login me password pw\n', reason: 'secret: credentials file (.netrc)' },
    { path: '.git-credentials', content: 'https://me:pw@example.com\n', reason: 'secret: credentials file (.git-credentials)' },
    { path: 'infra/prod.tfvars', content: 'db_password = "x"\n', reason: 'secret: Terraform variables (*.tfvars)' },
    { path: 'infra/terraform.tfstate', content: '{}\n', reason: 'secret: Terraform state (*.tfstate)' },
    { path: 'config/client_secret_123.json', content: '{}\n', reason: 'secret: secret file (*secret*)' },
    // Content rules under names no name rule matches.
    { path: 'config/service-account.json', content: `{\n  "type": "service_account",\n  "private_key": "${pemBlock('', '\\n')}"\n}\n`, reason: 'secret: private key block (line 3)' },
    { path: 'src/crypto/test-key.ts', content: `export const KEY = \`\n${pemBlock('EC ', '\n')}\n\`;\n`, reason: 'secret: private key block (line 2)' },
    { path: 'deploy/billing.yaml', content: `plan: pro\nstripe:\n  key: ${stripeLive()}\n`, reason: 'secret: Stripe live key (line 3)' },
    { path: 'src/aws.ts', content: `export const client = new S3({ accessKeyId: '${awsKeyId()}' });\n`, reason: 'secret: AWS access key id (line 1)' },
    { path: 'scripts/release.sh', content: `#!/bin/sh\ncurl -H "Authorization: token ${githubToken()}" https://api.github.com\n`, reason: 'secret: GitHub token (line 2)' },
    { path: 'src/notify.js', content: `const slack = new WebClient('${slackToken()}');\n`, reason: 'secret: Slack token (line 1)' },
    { path: 'src/maps.ts', content: `export const MAPS_KEY = '${googleKey()}';\n`, reason: 'secret: Google API key (line 1)' },
    { path: 'src/llm.py', content: `client = OpenAI(api_key="${openAiKey()}")\n`, reason: 'secret: API key (sk-...) (line 1)' },
    { path: 'config/database.yml', content: 'production:\n  adapter: postgresql\n  password: "9f!kQ2#xLm"\n', reason: 'secret: password assignment (line 3)' },
    { path: 'appsettings.json', content: '{\n  "ConnectionStrings": {\n    "Default": "Server=db;Database=app;User Id=sa;Password=Str0ng!Pass;"\n  }\n}\n', reason: 'secret: password in a connection string (line 3)' },
    { path: 'config/maven-settings.xml', content: '<settings>\n  <server>\n    <password>d3pl0y-Pa55!</password>\n  </server>\n</settings>\n', reason: 'secret: password element (line 3)' },
    { path: 'config/queue.toml', content: '[broker]\nurl = "amqp://worker:Qx7-pw9Lk2@rabbit:5672/"\n', reason: 'secret: password in a URL (line 2)' },
  ];
}

/**
 * Files that talk about secrets without holding one: each must be indexed. Code that handles passwords and
 * tokens, placeholders, references to the environment, labels, a parser's literal PEM header, AWS's documented
 * example key id.
 */
export function cleanFixtures(): Record<string, string> {
  const dashes = '-'.repeat(5);
  return {
    'src/users/password.ts': 'export function checkPassword(password: string, token: string): boolean {\n  const secret = process.env.SECRET_KEY;\n  return password.length > 8 && token === secret;\n}\n',
    'src/auth/token-store.ts': 'export const tokenStore = new Map<string, string>();\nexport const password = { minLength: 12, requireDigit: true };\nconst apiKey = config.apiKey;\n',
    'src/auth/secret-manager.ts': 'export class SecretManager {\n  get(name: string): string | undefined {\n    return process.env[name];\n  }\n}\n',
    'test/login.test.ts': "it('logs in', () => login({ user: 'ann', password: 'correct-horse-battery' }));\n",
    'src/crypto/pem.ts': `export const isPrivateKey = (text: string) => text.startsWith('${dashes}BEGIN RSA PRIVATE KEY${dashes}');\n`,
    'docs/aws.md': '# AWS\n\nSet `AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE` and `OPENAI_API_KEY=sk-...` in your shell.\n',
    'styles/spinner.css': '.sk-fading-circle-animation-delay-rotate-child-element-twelve { opacity: 0; }\n',
    'config/settings.py': "import os\nSECRET_KEY = os.environ['SECRET_KEY']\nPASSWORD_MIN_LENGTH = 12\n",
    'docker/docker-compose.yml': 'services:\n  db:\n    environment:\n      POSTGRES_PASSWORD: ${POSTGRES_PASSWORD}\n      POSTGRES_PASSWORD_FILE: /run/secrets/db\n',
    'config/application.properties': 'spring.datasource.password=${DB_PASSWORD}\nauth.token-ttl=3600\napp.password.min-length=12\n',
    'locales/de.json': '{\n  "password": "Passwort",\n  "token": "Zugangscode eingeben",\n  "secret": "Geheimnis"\n}\n',
    'config/ci.yml': 'steps:\n  - run: deploy\n    with:\n      token: ${{ secrets.GITHUB_TOKEN }}\n      password: changeme123\n',
    'config/db.toml': '[db]\nurl = "postgres://postgres:postgres@localhost:5432/dev"\n',
  };
}
