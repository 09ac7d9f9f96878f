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
  /** For an upload, the name it is stored under. */
  readonly filename: string;
  readonly size: number;
  /** The virtual path (the gateway never sends a host path). */
  readonly path: string;
  /** The path the agent sees, e.g. `/mnt/user-data/uploads/report.pdf`. */
  readonly virtual_path: string;
  readonly modified: number;
  readonly artifact_url: string;
  /** Uploads: the name sent, when the file is stored under another (`data.txt` → `data_1.txt`). */
  readonly original_filename?: string;
}

/** `POST /api/threads/:id/uploads`. */
export interface UploadResult {
  readonly success: boolean;
  readonly files: FileInfo[];
  readonly message: string;
  readonly skipped_files: string[];
}

/** `GET /api/threads/:id/uploads/limits`: the limits in force for one upload request. */
export interface UploadLimits {
  readonly max_files: number;
  readonly max_file_size: number;
  readonly max_total_size: number;
}

/** `GET /api/threads/:id/files`. */
export interface ThreadFiles {
  readonly outputs: FileInfo[];
  readonly uploads: FileInfo[];
}
