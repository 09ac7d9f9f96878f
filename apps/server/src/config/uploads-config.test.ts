import { describe, expect, it } from "vitest";
import { parseConfigText } from "./load-config.js";

describe("uploads: config", () => {
  it("converts no documents unless auto_convert_documents is true", () => {
    expect(parseConfigText("storage:\n  data_dir: ./d\n").config.uploads).toEqual({ autoConvertDocuments: false });
    expect(parseConfigText("uploads:\n  auto_convert_documents: true\n").config.uploads).toEqual({
      autoConvertDocuments: true,
    });
  });

  it("names the key of a bad value", () => {
    expect(() => parseConfigText("uploads:\n  auto_convert_documents: sometimes\n")).toThrow(
      /uploads\.auto_convert_documents/,
    );
    expect(() => parseConfigText("uploads:\n  pdf_converter: auto\n")).toThrow(/uploads/);
  });
});
