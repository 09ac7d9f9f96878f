import { describe, expect, it } from "vitest";
import { parseConfigText } from "./load-config.js";

describe("title: config", () => {
  it("defaults to DeerFlow's values with the local title", () => {
    expect(parseConfigText("storage:\n  data_dir: ./d\n").config.title).toEqual({
      enabled: true,
      maxWords: 6,
      maxChars: 60,
    });
  });

  it("reads every key", () => {
    const text =
      "models:\n  - { name: fast, model: m }\ntitle:\n  enabled: false\n  max_words: 3\n  max_chars: 20\n  model_name: fast\n  prompt_template: 'Title: {user_msg}'\n";
    expect(parseConfigText(text).config.title).toEqual({
      enabled: false,
      maxWords: 3,
      maxChars: 20,
      modelName: "fast",
      promptTemplate: "Title: {user_msg}",
    });
  });

  it("names the key of a bad value", () => {
    expect(() => parseConfigText("title:\n  max_words: 21\n")).toThrow(/title\.max_words/);
    expect(() => parseConfigText("title:\n  max_chars: 5\n")).toThrow(/title\.max_chars/);
    expect(() => parseConfigText("title:\n  model_name: nope\n")).toThrow(/title\.model_name.*unknown model "nope"/);
  });
});
