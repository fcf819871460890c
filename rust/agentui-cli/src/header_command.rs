//! `agentui run --header-command CMD`: the request headers come from a command run before each
//! request (the run, a retry, a resumption), so a token script keeps a long conversation
//! signed in.
//!
//! The command runs through `sh -c`, with `AGENTUI_HEADER_REASON` set to `request`, or to
//! `unauthorized` when the agent refused the last headers (the script should fetch a fresh
//! token then). Each non-empty line it prints is one header, `NAME: VALUE`. A command that exits
//! non-zero, prints something else or more than [`MAX_OUTPUT`] fails the request; one that hangs
//! is killed at the transport's header timeout. What it prints is never echoed.

use std::process::Stdio;

use agentui_agui::transport::{HeaderFuture, HeaderProvider, HeaderReason};
use tokio::io::AsyncReadExt;

/// Most bytes of output read from the command.
pub const MAX_OUTPUT: u64 = 64 * 1024;

/// Runs `command` for each request's headers.
#[derive(Debug)]
pub struct HeaderCommand {
    command: String,
}

impl HeaderCommand {
    pub fn new(command: String) -> Self {
        HeaderCommand { command }
    }

    async fn headers_for(&self, reason: HeaderReason) -> Result<Vec<(String, String)>, String> {
        let reason = match reason {
            HeaderReason::Request => "request",
            HeaderReason::Unauthorized { .. } => "unauthorized",
        };
        let mut child = tokio::process::Command::new("sh")
            .arg("-c")
            .arg(&self.command)
            .env("AGENTUI_HEADER_REASON", reason)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            // Dropped at the header timeout: the command does not outlive the request.
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| format!("--header-command could not start: {e}"))?;
        let mut output = Vec::new();
        if let Some(stdout) = child.stdout.take() {
            stdout
                .take(MAX_OUTPUT + 1)
                .read_to_end(&mut output)
                .await
                .map_err(|e| format!("--header-command output could not be read: {e}"))?;
        }
        if output.len() as u64 > MAX_OUTPUT {
            // Returning drops the child, which kills it: it may be blocked writing the rest.
            return Err(format!("--header-command printed more than {MAX_OUTPUT} bytes"));
        }
        let status = child.wait().await.map_err(|e| format!("--header-command: {e}"))?;
        if !status.success() {
            return Err(format!("--header-command exited with {status}"));
        }
        parse_header_lines(&output)
    }
}

impl HeaderProvider for HeaderCommand {
    fn headers(&self, reason: HeaderReason) -> HeaderFuture<'_> {
        Box::pin(self.headers_for(reason))
    }
}

/// `NAME: VALUE` lines; an error names the line by number only (it may hold a credential).
fn parse_header_lines(output: &[u8]) -> Result<Vec<(String, String)>, String> {
    let text = std::str::from_utf8(output).map_err(|_| "--header-command printed invalid UTF-8".to_owned())?;
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(n, line)| match line.split_once(':') {
            Some((name, value)) if !name.trim().is_empty() => Ok((name.trim().to_owned(), value.trim().to_owned())),
            _ => Err(format!("--header-command line {} is not NAME: VALUE", n + 1)),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_headers_and_a_bad_line_is_named_by_number_only() {
        let parsed = parse_header_lines(b"Authorization: Bearer a:b\n\nX-Team:  blue \n").unwrap();
        assert_eq!(
            parsed,
            [("Authorization".to_owned(), "Bearer a:b".to_owned()), ("X-Team".to_owned(), "blue".to_owned())]
        );
        let err = parse_header_lines(b"Authorization: ok\nBearer s3cret\n").unwrap_err();
        assert_eq!(err, "--header-command line 2 is not NAME: VALUE");
    }

    #[tokio::test]
    async fn the_command_is_told_why_and_its_failures_are_errors() {
        let echo = HeaderCommand::new("echo \"X-Reason: $AGENTUI_HEADER_REASON\"".into());
        assert_eq!(echo.headers_for(HeaderReason::Request).await.unwrap()[0].1, "request");
        let refused = HeaderReason::Unauthorized { challenges: Vec::new(), dpop_nonce: None };
        assert_eq!(echo.headers_for(refused).await.unwrap()[0].1, "unauthorized");
        let failing = HeaderCommand::new("echo 'X-Token: s3cret'; exit 3".into());
        let err = failing.headers_for(HeaderReason::Request).await.unwrap_err();
        assert!(err.contains("exited") && !err.contains("s3cret"), "{err}");
        let flood = HeaderCommand::new("yes 'X-A: b'".into());
        assert!(flood.headers_for(HeaderReason::Request).await.unwrap_err().contains("more than"));
    }
}
