//! A Streamable HTTP MCP server: every client message is a POST to the endpoint; the answer is
//! JSON or a server-sent-event stream of messages. The session id from `initialize` goes on
//! every later request.

use serde_json::Value;
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read};
use std::time::{Duration, Instant};

use super::error::CaptureError;
use super::protocol::{Connection, Incoming, MAX_MESSAGE_BYTES};
use super::Redactor;

/// A Streamable HTTP connection.
pub struct HttpConnection {
    agent: ureq::Agent,
    url: String,
    headers: Vec<(String, String)>,
    session: Option<String>,
    protocol_version: Option<String>,
    inbox: VecDeque<Incoming>,
    redactor: Redactor,
}

impl HttpConnection {
    /// A connection to `url` sending `headers` (values are secrets) on every request.
    pub fn new(
        url: &str,
        headers: Vec<(String, String)>,
        timeout: Duration,
        redactor: &Redactor,
    ) -> Result<HttpConnection, CaptureError> {
        if !(url.starts_with("http://") || url.starts_with("https://")) {
            return Err(CaptureError::NotHttp {
                url: url.to_string(),
            });
        }
        let config = ureq::Agent::config_builder()
            .timeout_global(Some(timeout))
            .http_status_as_error(false)
            .build();
        Ok(HttpConnection {
            agent: ureq::Agent::new_with_config(config),
            url: url.to_string(),
            headers,
            session: None,
            protocol_version: None,
            inbox: VecDeque::new(),
            redactor: redactor.clone(),
        })
    }

    /// Reads the messages of an answer body: one JSON value, or an SSE stream.
    fn read_body(&mut self, content_type: &str, body: impl Read) -> Result<(), CaptureError> {
        let mut limited = body.take(MAX_MESSAGE_BYTES as u64 + 1);
        if content_type.starts_with("text/event-stream") {
            let mut data = String::new();
            for line in BufReader::new(&mut limited).lines() {
                let line = line.map_err(|e| self.read_error(&e))?;
                if let Some(rest) = line.strip_prefix("data:") {
                    data.push_str(rest.strip_prefix(' ').unwrap_or(rest));
                    data.push('\n');
                } else if line.is_empty() && !data.is_empty() {
                    self.push_text(&std::mem::take(&mut data));
                }
            }
            if !data.is_empty() {
                self.push_text(&data);
            }
            if limited.limit() == 0 {
                return Err(CaptureError::TooLarge);
            }
        } else {
            let mut text = String::new();
            limited
                .read_to_string(&mut text)
                .map_err(|e| self.read_error(&e))?;
            if text.len() > MAX_MESSAGE_BYTES {
                return Err(CaptureError::TooLarge);
            }
            self.push_text(&text);
        }
        Ok(())
    }

    fn read_error(&self, error: &std::io::Error) -> CaptureError {
        CaptureError::Read {
            reason: crate::text::clip(&self.redactor.redact(&error.to_string()), 200),
        }
    }

    /// Queues a JSON message (or a batch of them), or the text as garbage.
    fn push_text(&mut self, text: &str) {
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return;
        }
        match serde_json::from_str::<Value>(trimmed) {
            Ok(Value::Array(batch)) => self.inbox.extend(batch.into_iter().map(Incoming::Message)),
            Ok(value) => self.inbox.push_back(Incoming::Message(value)),
            Err(_) => self.inbox.push_back(Incoming::Garbage(trimmed.to_string())),
        }
    }
}

impl Connection for HttpConnection {
    fn send(&mut self, message: &Value) -> Result<(), CaptureError> {
        let mut request = self
            .agent
            .post(&self.url)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream");
        for (key, value) in &self.headers {
            request = request.header(key.as_str(), value.as_str());
        }
        if let Some(session) = &self.session {
            request = request.header("Mcp-Session-Id", session.as_str());
        }
        if let Some(version) = &self.protocol_version {
            request = request.header("MCP-Protocol-Version", version.as_str());
        }
        let body = message.to_string();
        let response = request.send(body.as_bytes()).map_err(|e| match e {
            ureq::Error::Timeout(_) => CaptureError::TimedOut,
            other => CaptureError::Request {
                reason: crate::text::clip(&self.redactor.redact(&other.to_string()), 200),
            },
        })?;
        let status = response.status().as_u16();
        if let Some(session) = response
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
        {
            self.session = Some(session.to_string());
        }
        if !(200..300).contains(&status) {
            return Err(CaptureError::HttpStatus {
                status,
                method: message
                    .get("method")
                    .and_then(Value::as_str)
                    .unwrap_or("a response")
                    .to_string(),
            });
        }
        let content_type = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_ascii_lowercase();
        if status == 202 || content_type.is_empty() {
            return Ok(());
        }
        self.read_body(&content_type, response.into_body().into_reader())?;
        // The version the server chose goes on every later request.
        if message.get("method").and_then(Value::as_str) == Some("initialize") {
            self.protocol_version = self.inbox.iter().find_map(|m| match m {
                Incoming::Message(v) => v
                    .pointer("/result/protocolVersion")
                    .and_then(Value::as_str)
                    .map(str::to_string),
                Incoming::Garbage(_) => None,
            });
        }
        Ok(())
    }

    fn receive(&mut self, _deadline: Instant) -> Result<Incoming, CaptureError> {
        // Every answer arrives with the POST that asked for it.
        self.inbox.pop_front().ok_or(CaptureError::NoAnswer)
    }
}

impl Drop for HttpConnection {
    fn drop(&mut self) {
        // End the session politely; a server that does not support it answers 405.
        if let Some(session) = &self.session {
            let mut request = self
                .agent
                .delete(&self.url)
                .header("Mcp-Session-Id", session.as_str());
            for (key, value) in &self.headers {
                request = request.header(key.as_str(), value.as_str());
            }
            let _ = request.call();
        }
    }
}
