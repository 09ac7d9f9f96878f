/**
 * A `config.yaml` with two models on one scripted OpenAI-compatible endpoint:
 * `main` (the default, model id `scripted-main`) and `thinker` (`scripted-thinker`,
 * `supports_thinking` and `supports_reasoning_effort`), for the model tests.
 */

/**
 * @param baseURL - the scripted endpoint's `baseURL`
 * @param thinkerExtra - more keys of the `thinker` entry (YAML, indented by four spaces)
 * @returns the YAML text, with data under `./data`, host bash allowed and titles off
 */
export function twoModelsYaml(baseURL: string, thinkerExtra = ""): string {
  return `
models:
  - name: main
    model: scripted-main
    display_name: Main model
    base_url: ${baseURL}
    api_key: test
    max_retries: 0
  - name: thinker
    model: scripted-thinker
    display_name: Deep thinker
    description: Reasons before answering
    base_url: ${baseURL}
    api_key: test
    max_retries: 0
    supports_thinking: true
    supports_reasoning_effort: true
${thinkerExtra}
sandbox:
  allow_host_bash: true
storage:
  data_dir: ./data
title:
  enabled: false
`;
}
