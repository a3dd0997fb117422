import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'ldapts';
import { freePort } from './free-port.js';

/**
 * A real OpenLDAP `slapd` for tests (Debian package slapd): its own config and mdb database in
 * a temporary directory, on a free loopback port. Without the binary the LDAP tests skip, unless
 * CI=true or SLIPWAY_REQUIRE_LDAP=1, where a missing slapd fails them.
 */
export const SLAPD_BIN = process.env.SLAPD_PATH ?? '/usr/sbin/slapd';
const SLAPADD_BIN = path.join(path.dirname(SLAPD_BIN), 'slapadd');
const SCHEMA_DIR = '/etc/ldap/schema';
const MODULE_DIR = '/usr/lib/ldap';

export const SUFFIX = 'dc=slipway,dc=test';
export const ROOT_DN = `cn=admin,${SUFFIX}`;
export const ROOT_PASSWORD = 'root-Secret1';
export const SERVICE_DN = `cn=reader,${SUFFIX}`;
export const SERVICE_PASSWORD = 'reader-Secret1';
export const LDAP_PEOPLE = {
  ada: { password: 'Ada!ldap1', mail: 'ada@directory.test', givenName: 'Ada', sn: 'Lovelace' },
  bob: { password: 'Bob!ldap1', mail: 'bob@directory.test', givenName: 'Bob', sn: 'Builder' },
} as const;

export const slapdAvailable = existsSync(SLAPD_BIN) && existsSync(SLAPADD_BIN);
export const slapdRequired = process.env.CI === 'true' || process.env.SLIPWAY_REQUIRE_LDAP === '1';

const LDIF = `dn: ${SUFFIX}
objectClass: dcObject
objectClass: organization
dc: slipway
o: Slipway test

dn: ou=people,${SUFFIX}
objectClass: organizationalUnit
ou: people

dn: ou=groups,${SUFFIX}
objectClass: organizationalUnit
ou: groups

dn: ${SERVICE_DN}
objectClass: organizationalRole
objectClass: simpleSecurityObject
cn: reader
userPassword: ${SERVICE_PASSWORD}

${Object.entries(LDAP_PEOPLE)
  .map(
    ([uid, p]) => `dn: uid=${uid},ou=people,${SUFFIX}
objectClass: inetOrgPerson
uid: ${uid}
cn: ${p.givenName} ${p.sn}
givenName: ${p.givenName}
sn: ${p.sn}
mail: ${p.mail}
userPassword: ${p.password}
`,
  )
  .join('\n')}
dn: cn=admins,ou=groups,${SUFFIX}
objectClass: groupOfNames
cn: admins
member: uid=ada,ou=people,${SUFFIX}

dn: cn=devs,ou=groups,${SUFFIX}
objectClass: groupOfNames
cn: devs
member: uid=ada,ou=people,${SUFFIX}
member: uid=bob,ou=people,${SUFFIX}
`;

function config(dir: string, tls: boolean): string {
  // With TLS, a simple bind needs an encrypted connection: ldaps://, or ldap:// upgraded by
  // StartTLS; a plain one is refused with "confidentiality required".
  const tlsLines = tls
    ? `TLSCertificateFile ${dir}/cert.pem
TLSCertificateKeyFile ${dir}/key.pem
security simple_bind=128
`
    : '';
  return `include ${SCHEMA_DIR}/core.schema
include ${SCHEMA_DIR}/cosine.schema
include ${SCHEMA_DIR}/inetorgperson.schema
${tlsLines}pidfile ${dir}/slapd.pid
argsfile ${dir}/slapd.args
modulepath ${MODULE_DIR}
moduleload back_mdb
database mdb
maxsize 16777216
suffix "${SUFFIX}"
rootdn "${ROOT_DN}"
rootpw ${ROOT_PASSWORD}
directory ${dir}/db
access to attrs=userPassword by self read by anonymous auth by * none
access to * by dn.exact="${SERVICE_DN}" read by self read by * none
`;
}

export interface SlapdPeer {
  url: string;
  /** with `tls`: the ldaps:// listener */
  ldapsUrl: string | null;
  /** with `tls`: the server's self-signed certificate (PEM), which is its own CA */
  certificate: string | null;
  stop(): Promise<void>;
}

/**
 * A self-signed certificate for 127.0.0.1 made by `openssl` (key.pem and cert.pem in `dir`).
 */
export function selfSignedCertificate(dir: string): string {
  const made = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      path.join(dir, 'key.pem'),
      '-out',
      path.join(dir, 'cert.pem'),
      '-days',
      '2',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { encoding: 'utf8' },
  );
  if (made.status !== 0) throw new Error(`openssl failed: ${made.stderr || made.stdout}`);
  return readFileSync(path.join(dir, 'cert.pem'), 'utf8');
}

/**
 * Starts slapd on a free port. With `tls: true` it also listens on ldaps://, answers StartTLS on
 * ldap://, presents a fresh self-signed certificate, and refuses simple binds without TLS.
 */
export async function startSlapd(options: { tls?: boolean } = {}): Promise<SlapdPeer> {
  const tls = options.tls ?? false;
  const dir = mkdtempSync(path.join(tmpdir(), 'slipway-slapd-'));
  mkdirSync(path.join(dir, 'db'));
  const certificate = tls ? selfSignedCertificate(dir) : null;
  const conf = path.join(dir, 'slapd.conf');
  writeFileSync(conf, config(dir, tls));
  writeFileSync(path.join(dir, 'data.ldif'), LDIF);
  const loaded = spawnSync(SLAPADD_BIN, ['-f', conf, '-l', path.join(dir, 'data.ldif')], {
    encoding: 'utf8',
  });
  if (loaded.status !== 0) throw new Error(`slapadd failed: ${loaded.stderr || loaded.stdout}`);

  const port = await freePort();
  const url = `ldap://127.0.0.1:${port}`;
  const ldapsUrl = tls ? `ldaps://127.0.0.1:${await freePort()}` : null;
  const listeners = ldapsUrl ? `${url}/ ${ldapsUrl}/` : `${url}/`;
  let output = '';
  const child: ChildProcess = spawn(SLAPD_BIN, ['-h', listeners, '-f', conf, '-d', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (b: Buffer) => (output += b.toString()));
  child.stderr?.on('data', (b: Buffer) => (output += b.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };

  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`slapd exited with ${child.exitCode}: ${output}`);
    }
    // with TLS, only an encrypted connection may bind: ask on the ldaps:// listener
    const client = new Client({
      url: ldapsUrl ?? url,
      connectTimeout: 1_000,
      timeout: 2_000,
      ...(certificate ? { tlsOptions: { ca: [certificate] } } : {}),
    });
    try {
      await client.bind(SERVICE_DN, SERVICE_PASSWORD);
      await client.unbind();
      return { url, ldapsUrl, certificate, stop };
    } catch (err) {
      await client.unbind().catch(() => undefined);
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`slapd did not answer on ${url}: ${(err as Error).message}\n${output}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
