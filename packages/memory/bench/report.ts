/** The shared BENCHMARKS.md formatting (repo tooling, not package code). */
export * from "../../../scripts/lib/bench-report.mjs";
