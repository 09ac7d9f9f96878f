/**
 * The `models:` section of an e2e `config.yaml` whose models all answer from
 * one scripted OpenAI-compatible endpoint, told apart by the request's model
 * field.
 */

/**
 * @param baseURL - the scripted endpoint's `baseURL`
 * @param names - the models' names, the default first; each is served as model id `scripted-<name>`
 * @returns the YAML text (`models:` and its entries, no retries)
 */
export function scriptedModelsYaml(baseURL: string, names: readonly string[]): string {
  const entries = names.map(
    (name) => `
  - name: ${name}
    model: scripted-${name}
    base_url: ${baseURL}
    api_key: test
    max_retries: 0`,
  );
  return `\nmodels:${entries.join("")}\n`;
}
