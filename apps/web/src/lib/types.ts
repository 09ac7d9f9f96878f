/** Shapes of the DeerFlow API answers the console reads. */

/** `GET /api/info`. */
export interface ServerInfo {
  readonly version: string;
  readonly demoModel: boolean;
  readonly defaultModel: string;
  readonly authRequired: boolean;
}

/** One skill of `GET /api/skills`. */
export interface Skill {
  readonly name: string;
  readonly description: string;
  readonly license: string | null;
  readonly category: "public" | "custom";
  readonly enabled: boolean;
  readonly editable?: boolean;
}

/** A custom skill with its raw SKILL.md. */
export interface CustomSkill extends Skill {
  readonly content: string;
}

/** One file of `GET /api/skills/:name/files`. */
export interface SkillFile {
  readonly path: string;
  readonly size: number;
}

/** A static-scanner finding (a refused install or edit). */
export interface Finding {
  readonly rule_id: string;
  readonly severity: string;
  readonly file: string;
  readonly line: number | null;
  readonly message: string;
  readonly remediation?: string;
  readonly evidence?: string;
}

/** One record of a custom skill's history. */
export interface HistoryRecord {
  readonly ts: string;
  readonly action: string;
  readonly author: string;
  readonly thread_id?: string | null;
  readonly file_path: string;
  readonly prev_content: string | null;
  readonly new_content: string | null;
  readonly scanner?: { decision: string; reason?: string | null };
  readonly rollback_from_ts?: string;
}

/** A thread file. */
export interface FileInfo {
  readonly filename: string;
  readonly size: number;
  readonly path: string;
  readonly modified: number;
  readonly artifact_url: string;
}

/** `GET /api/threads/:id/files`. */
export interface ThreadFiles {
  readonly outputs: FileInfo[];
  readonly uploads: FileInfo[];
}
