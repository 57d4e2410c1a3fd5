import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ImapFlow } from "imapflow";

const DOVECOT = "/usr/sbin/dovecot";

/** Debian's dovecot-imapd is installed (.ci/run installs it). */
export const dovecotInstalled = existsSync(DOVECOT);

export type ImapServer = {
  /** An imap:// URL that logs in as this user. */
  urlOf(user: string, password?: string): string;
  port: number;
  /** Puts a raw message into the user's INBOX over IMAP (APPEND), as delivery would. */
  deliver(user: string, raw: string | Buffer): Promise<void>;
  close(): Promise<void>;
};

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A real IMAP server: Debian's Dovecot, run in a temporary directory on 127.0.0.1 with its own
 * configuration (plain-text logins over a loopback port, maildirs owned by `nobody`), in the
 * foreground as this test's child process. It speaks IDLE, as most servers do.
 */
export async function startImapServer(users: Record<string, string>): Promise<ImapServer> {
  const dir = await mkdtemp(join(tmpdir(), "agentdesk-imap-"));
  const port = await freePort();
  await Promise.all(["run", "state", "mail"].map((name) => mkdir(join(dir, name))));
  // The mail processes run as `nobody`: they must reach the maildirs.
  await chmod(dir, 0o755);
  await chmod(join(dir, "mail"), 0o777);
  const lines = Object.entries(users).map(
    ([user, password]) => `${user}:{PLAIN}${password}:65534:65534::${join(dir, "mail", user)}`,
  );
  await writeFile(join(dir, "users"), `${lines.join("\n")}\n`);
  await writeFile(
    join(dir, "dovecot.conf"),
    `base_dir = ${join(dir, "run")}
state_dir = ${join(dir, "state")}
log_path = ${join(dir, "dovecot.log")}
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:~/Maildir
first_valid_uid = 1
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${join(dir, "users")}
}
userdb {
  driver = passwd-file
  args = username_format=%u ${join(dir, "users")}
}
service imap-login {
  chroot =
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
service anvil {
  chroot =
}
`,
  );
  const child: ChildProcess = spawn(DOVECOT, ["-F", "-c", join(dir, "dovecot.conf")], {
    stdio: "ignore",
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  // Ready when it accepts a login.
  const deadline = Date.now() + 10_000;
  for (;;) {
    const probe = new ImapFlow({
      host: "127.0.0.1",
      port,
      secure: false,
      auth: { user: Object.keys(users)[0]!, pass: Object.values(users)[0]! },
      logger: false,
    });
    probe.on("error", () => {});
    const ok = await probe.connect().then(
      () => true,
      () => false,
    );
    await probe.logout().catch(() => probe.close());
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      const log = spawnSync("cat", [join(dir, "dovecot.log")]).stdout?.toString() ?? "";
      throw new Error(`dovecot did not start: ${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  return {
    port,
    urlOf: (user, password = users[user]) =>
      `imap://${encodeURIComponent(user)}:${encodeURIComponent(password ?? "")}@127.0.0.1:${port}`,
    async deliver(user, raw) {
      const client = new ImapFlow({
        host: "127.0.0.1",
        port,
        secure: false,
        auth: { user, pass: users[user]! },
        logger: false,
      });
      client.on("error", () => {});
      await client.connect();
      try {
        await client.append("INBOX", raw);
      } finally {
        await client.logout().catch(() => client.close());
      }
    },
    async close() {
      child.kill("SIGTERM");
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
