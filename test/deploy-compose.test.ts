/**
 * docker-compose.yml, checked without a Docker engine (none runs on these machines; `docker compose
 * config` needs the compose plugin, which is not installed either): against the compose-spec JSON
 * schema that docker compose itself validates with (compose-go's schema/compose-spec.json), and for
 * the Temporal search attributes the crawl workflows set. (Entrypoints and settings compared with
 * the Helm chart: test/deploy-parity.test.ts.)
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { jobSearchAttributes } from '../scripts/infra/temporal.js';
import { composePath, deployTool, readCompose, readJson } from './helpers/deploy.js';

function validator() {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  return ajv.compile(readJson(deployTool('composeSchema')) as object);
}

describe('docker-compose.yml', () => {
  it('is a valid Compose file by the compose-spec schema', () => {
    const validate = validator();
    const valid = validate(readCompose());
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it('fails that schema with a misspelt key (the check is not a no-op)', () => {
    const validate = validator();
    const broken = readCompose(readFileSync(composePath, 'utf8').replace('    restart: "no"\n', '    restrat: "no"\n'));
    expect(validate(broken)).toBe(false);
    expect(validate.errors).toContainEqual(expect.objectContaining({ instancePath: '/services/migrate', keyword: 'unevaluatedProperties', params: { unevaluatedProperty: 'restrat' } }));
  });

  it('starts its Temporal dev server with exactly the search attributes the workflows set', () => {
    const command = readCompose().services.temporal!.command!;
    const registered = command.filter((a) => a.startsWith('--search-attribute=')).map((a) => a.slice('--search-attribute='.length));
    expect(registered.sort()).toEqual(Object.entries(jobSearchAttributes).map(([name, type]) => `${name}=${type}`).sort());
  });
});
