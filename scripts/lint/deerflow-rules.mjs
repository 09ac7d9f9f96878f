// The repository's own oxlint rules (loaded through `jsPlugins` in .oxlintrc.json).
//
// no-cross-package-instanceof: each @deerflow package bundles its own copy of
// the kernel's error base class, and an application can end up with two copies
// of a package, so `err instanceof SandboxError` is false for an error made by
// the other copy. The packages' errors carry a brand checked by `X.isInstance`;
// this rule flags `instanceof` against anything imported from `@deerflow/*`.
// Classes of the importing package itself (relative imports) are one copy and
// stay free to use `instanceof`.

/** True when `source` names a workspace package or one of its subpaths. */
function isDeerflowSource(source) {
  return typeof source === "string" && source.startsWith("@deerflow/");
}

const noCrossPackageInstanceof = {
  meta: {
    type: "problem",
    docs: { description: "Use X.isInstance(value) for classes imported from another @deerflow package" },
    messages: {
      brand:
        "`instanceof {{name}}` is false for an error made by another copy of the package; use {{name}}.isInstance(value)",
    },
    schema: [],
  },
  create(context) {
    const imported = new Set();
    const namespaces = new Set();
    return {
      ImportDeclaration(node) {
        if (!isDeerflowSource(node.source.value)) return;
        for (const spec of node.specifiers) {
          (spec.type === "ImportNamespaceSpecifier" ? namespaces : imported).add(spec.local.name);
        }
      },
      BinaryExpression(node) {
        if (node.operator !== "instanceof") return;
        const right = node.right;
        let name;
        if (right.type === "Identifier" && imported.has(right.name)) name = right.name;
        else if (
          right.type === "MemberExpression" &&
          !right.computed &&
          right.object.type === "Identifier" &&
          namespaces.has(right.object.name)
        ) {
          name = `${right.object.name}.${right.property.name}`;
        }
        if (name !== undefined) context.report({ node, messageId: "brand", data: { name } });
      },
    };
  },
};

export default {
  meta: { name: "deerflow" },
  rules: { "no-cross-package-instanceof": noCrossPackageInstanceof },
};
