#!/usr/bin/env node
// Fails when a migration that was committed is later modified, renamed or deleted, or when a
// journal entry that was committed is changed. Drizzle applies only the migrations whose journal
// `when` is later than the last one a database recorded, and never looks at a file again once it
// ran: an edited migration silently differs between databases migrated before and after the edit.
//
// Walks the first-parent history of HEAD and compares each commit with its first parent, so a
// merge is judged by what it brings to the branch, not by its feature branch's own commits.
// Needs the full history (a shallow clone cannot show what changed) and says so instead of
// passing. Run by .ci/run before the tests; standalone: `node .ci/check-migrations.mjs`.
import { execFileSync } from "node:child_process";
import { isDeepStrictEqual } from "node:util";

const MIGRATIONS = "src/db/migrations";
const JOURNAL = `${MIGRATIONS}/meta/_journal.json`;
const MIGRATION_FILE = /^src\/db\/migrations\/[^/]+\.sql$/;

// Changes to landed migrations made before this check existed, each one reviewed; nothing may be
// added here. Keys are `<commit> <what>`.
const BASELINE = new Set([
  // The billing branch landed 0016_billing_reserve.sql at 2b2d988 and made its reservation
  // commit with synchronous_commit off twelve minutes later, before any release ran it.
  "9bbafdd2ec7d61e704fe3816029828f77f527227 M src/db/migrations/0016_billing_reserve.sql",
  // Merging the conversation ids work (its migrations 0015-0018) renumbered the two billing
  // migrations to 0019 and 0020 and gave them later journal times, so that databases created
  // before either branch apply all six in order. No release had run the old numbers.
  "2cfc42509b0c54620a11a9ea5b246dbec2ebccda R src/db/migrations/0015_credit_reservations.sql",
  "2cfc42509b0c54620a11a9ea5b246dbec2ebccda R src/db/migrations/0016_billing_reserve.sql",
  "2cfc42509b0c54620a11a9ea5b246dbec2ebccda journal entry 15",
  "2cfc42509b0c54620a11a9ea5b246dbec2ebccda journal entry 16",
]);

const KIND = { M: "modified", R: "renamed", D: "deleted", T: "changed type" };

function git(...args) {
  return execFileSync("git", args, {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    stdio: ["ignore", "pipe", "pipe"],
  });
}

function fail(message) {
  console.error(`check-migrations: ${message}`);
  process.exit(1);
}

function journalAt(commit) {
  try {
    return JSON.parse(git("show", `${commit}:${JOURNAL}`)).entries;
  } catch {
    return []; // No journal in that commit yet.
  }
}

let shallow;
try {
  shallow = git("rev-parse", "--is-shallow-repository").trim();
} catch {
  fail("not a git checkout: the history of the migrations is needed to check them.");
}
if (shallow !== "false") {
  fail(
    "this clone is shallow, so the history of the migrations cannot be checked. " +
      "Run `git fetch --unshallow` (or clone without --depth) and try again.",
  );
}

const problems = [];
let baselined = 0;
function report(commit, what, explanation) {
  if (BASELINE.has(`${commit} ${what}`)) {
    baselined += 1;
    return;
  }
  const subject = git("log", "-1", "--format=%h %s", commit).trim();
  problems.push(`${subject}\n    ${explanation}`);
}

const commits = git("rev-list", "--first-parent", "HEAD", "--", MIGRATIONS).split("\n");
for (const commit of commits.filter(Boolean)) {
  const parent = git("rev-list", "--max-count=1", "--parents", commit).trim().split(" ")[1];
  if (!parent) continue; // The root commit can only add.

  const changes = git("diff", "--name-status", "-M", parent, commit, "--", MIGRATIONS);
  for (const line of changes.split("\n").filter(Boolean)) {
    const [status, path, renamedTo] = line.split("\t");
    const kind = status[0];
    if (kind === "A" || !MIGRATION_FILE.test(path)) continue;
    const change = KIND[kind] ?? `changed (${status})`;
    report(
      commit,
      `${kind} ${path}`,
      `${change} ${path}${renamedTo ? ` -> ${renamedTo}` : ""}, which an earlier commit added`,
    );
  }

  if (!changes.includes(JOURNAL)) continue;
  const before = journalAt(parent);
  const after = journalAt(commit);
  for (const entry of before) {
    const now = after.find((candidate) => candidate.idx === entry.idx);
    if (!isDeepStrictEqual(now, entry)) {
      report(
        commit,
        `journal entry ${entry.idx}`,
        `changed journal entry ${entry.idx} (${entry.tag}): ${JSON.stringify(now ?? "removed")}`,
      );
    }
  }
  const lastWhen = Math.max(0, ...before.map((entry) => entry.when));
  for (const entry of after.filter((added) => added.idx >= before.length)) {
    if (entry.when <= lastWhen) {
      report(
        commit,
        `journal entry ${entry.idx}`,
        `added ${entry.tag} with a journal time (${entry.when}) not after the last one ` +
          `(${lastWhen}): databases that ran the earlier migration would skip it`,
      );
    }
  }
}

if (problems.length > 0) {
  fail(
    `a committed migration was changed:\n  ${problems.join("\n  ")}\n` +
      "Migrations are never edited after they land: undo the change and add a new migration " +
      "(`npx drizzle-kit generate --name <what>`). See README.md, Development.",
  );
}
console.log(
  `check-migrations: ${commits.filter(Boolean).length} commits that touch ${MIGRATIONS} checked; ` +
    `no landed migration was changed (${baselined} reviewed changes from before the check).`,
);
