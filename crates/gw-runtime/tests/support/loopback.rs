//! A scripted HTTP/1.1 server on 127.0.0.1 for provider tests. It answers
//! each request with the next scripted response, records what it received,
//! and stops after its script or its deadline, whichever comes first.

#![allow(dead_code)]

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
pub struct Scripted {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
    /// How long to sit on the request before answering.
    pub delay: Duration,
}

impl Scripted {
    pub fn json(v: Value) -> Scripted {
        Scripted {
            status: 200,
            headers: vec![],
            body: v.to_string(),
            delay: Duration::ZERO,
        }
    }
    pub fn raw(status: u16, body: &str) -> Scripted {
        Scripted {
            status,
            headers: vec![],
            body: body.to_string(),
            delay: Duration::ZERO,
        }
    }
    pub fn error(status: u16, v: Value) -> Scripted {
        Scripted {
            status,
            headers: vec![],
            body: v.to_string(),
            delay: Duration::ZERO,
        }
    }
    pub fn delayed(mut self, d: Duration) -> Scripted {
        self.delay = d;
        self
    }
    pub fn with_header(mut self, k: &str, v: &str) -> Scripted {
        self.headers.push((k.into(), v.into()));
        self
    }
}

/// One request as received.
#[derive(Clone, Debug)]
pub struct Received {
    pub method: String,
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: Value,
    pub at: Instant,
}

impl Received {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

pub struct Server {
    pub port: u16,
    received: Arc<Mutex<Vec<(usize, Received)>>>,
    handle: Option<JoinHandle<()>>,
}

impl Server {
    /// Serve `script` in order; requests beyond it get a 500.
    pub fn start(script: Vec<Scripted>) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
        let port = listener.local_addr().unwrap().port();
        listener.set_nonblocking(true).unwrap();
        let received = Arc::new(Mutex::new(Vec::new()));
        let log = received.clone();
        let handle = std::thread::spawn(move || {
            let deadline = Instant::now() + Duration::from_secs(120);
            let mut script = script.into_iter();
            let mut remaining = script.len();
            let mut workers = Vec::new();
            let mut index = 0;
            while remaining > 0 && Instant::now() < deadline {
                match listener.accept() {
                    Ok((stream, _)) => {
                        let reply = script.next().unwrap_or_else(|| {
                            Scripted::raw(500, "{\"error\": \"script exhausted\"}")
                        });
                        // One thread per connection, so a slow reply does not
                        // hold up the client's retry.
                        let log = log.clone();
                        let i = index;
                        workers.push(std::thread::spawn(move || {
                            if let Some(r) = serve(stream, &reply) {
                                log.lock().unwrap().push((i, r));
                            }
                        }));
                        index += 1;
                        remaining -= 1;
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                        std::thread::sleep(Duration::from_millis(2))
                    }
                    Err(_) => break,
                }
            }
            for w in workers {
                let _ = w.join();
            }
        });
        Server {
            port,
            received,
            handle: Some(handle),
        }
    }

    pub fn base(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Wait for the script to finish; the requests in arrival order.
    pub fn finish(mut self) -> Vec<Received> {
        if let Some(h) = self.handle.take() {
            h.join().unwrap();
        }
        let mut got = self.received.lock().unwrap().clone();
        got.sort_by_key(|(i, _)| *i);
        got.into_iter().map(|(_, r)| r).collect()
    }
}

fn serve(stream: TcpStream, reply: &Scripted) -> Option<Received> {
    stream.set_nonblocking(false).ok()?;
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .ok()?;
    let at = Instant::now();
    let mut reader = BufReader::new(stream.try_clone().ok()?);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let method = line.split_whitespace().next().unwrap_or("").to_string();
    let path = line.split_whitespace().nth(1).unwrap_or("").to_string();
    let mut headers = Vec::new();
    let mut length = 0usize;
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h).ok()? == 0 {
            break;
        }
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        if let Some((k, v)) = h.split_once(':') {
            if k.eq_ignore_ascii_case("content-length") {
                length = v.trim().parse().unwrap_or(0);
            }
            headers.push((k.trim().to_string(), v.trim().to_string()));
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    let body = serde_json::from_slice(&body).unwrap_or(Value::Null);
    std::thread::sleep(reply.delay);
    let reason = match reply.status {
        200 => "OK",
        429 => "Too Many Requests",
        301 => "Moved Permanently",
        302 => "Found",
        307 => "Temporary Redirect",
        308 => "Permanent Redirect",
        500 => "Internal Server Error",
        _ => "Status",
    };
    let mut out = format!(
        "HTTP/1.1 {} {reason}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n",
        reply.status,
        reply.body.len()
    );
    for (k, v) in &reply.headers {
        out.push_str(&format!("{k}: {v}\r\n"));
    }
    out.push_str("\r\n");
    out.push_str(&reply.body);
    let mut stream = stream;
    stream.write_all(out.as_bytes()).ok()?;
    stream.flush().ok()?;
    Some(Received {
        method,
        path,
        headers,
        body,
        at,
    })
}

// ---- Responses in each provider's exact format. ----

pub fn openai_tools(calls: &[(&str, &str)], usage: (u64, u64, u64)) -> Scripted {
    let tool_calls: Vec<Value> = calls
        .iter()
        .enumerate()
        .map(|(i, (name, args))| json!({"id": format!("call_{i}"), "type": "function", "function": {"name": name, "arguments": args}}))
        .collect();
    Scripted::json(json!({
        "id": "chatcmpl-test", "object": "chat.completion", "created": 1, "model": "test-model",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": null, "tool_calls": tool_calls}, "finish_reason": "tool_calls"}],
        "usage": {"prompt_tokens": usage.0, "completion_tokens": usage.1, "total_tokens": usage.0 + usage.1,
                  "prompt_tokens_details": {"cached_tokens": usage.2}}
    }))
}

pub fn openai_text(content: &str, usage: (u64, u64)) -> Scripted {
    Scripted::json(json!({
        "id": "chatcmpl-test", "object": "chat.completion", "created": 1, "model": "test-model",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": usage.0, "completion_tokens": usage.1, "total_tokens": usage.0 + usage.1}
    }))
}

pub fn openai_error(status: u16, message: &str) -> Scripted {
    Scripted::error(
        status,
        json!({"error": {"message": message, "type": "server_error", "code": null}}),
    )
}

pub fn anthropic_blocks(blocks: Value, usage: (u64, u64, u64)) -> Scripted {
    let stop = if blocks
        .as_array()
        .unwrap()
        .iter()
        .any(|b| b["type"] == "tool_use")
    {
        "tool_use"
    } else {
        "end_turn"
    };
    Scripted::json(json!({
        "id": "msg_test", "type": "message", "role": "assistant", "model": "claude-test",
        "content": blocks, "stop_reason": stop, "stop_sequence": null,
        "usage": {"input_tokens": usage.0, "output_tokens": usage.1, "cache_read_input_tokens": usage.2, "cache_creation_input_tokens": 0}
    }))
}

pub fn anthropic_tool(name: &str, input: Value, usage: (u64, u64, u64)) -> Scripted {
    anthropic_blocks(
        json!([{"type": "text", "text": "Acting."}, {"type": "tool_use", "id": "toolu_1", "name": name, "input": input}]),
        usage,
    )
}

pub fn anthropic_error(status: u16, kind: &str, message: &str) -> Scripted {
    Scripted::error(
        status,
        json!({"type": "error", "error": {"type": kind, "message": message}}),
    )
}

pub fn gemini_parts(parts: Value, usage: (u64, u64, u64)) -> Scripted {
    Scripted::json(json!({
        "candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": usage.0, "candidatesTokenCount": usage.1, "totalTokenCount": usage.0 + usage.1, "cachedContentTokenCount": usage.2},
        "modelVersion": "gemini-test"
    }))
}

pub fn gemini_call(name: &str, args: Value, usage: (u64, u64, u64)) -> Scripted {
    gemini_parts(
        json!([{"functionCall": {"name": name, "args": args}}]),
        usage,
    )
}

pub fn gemini_error(status: u16, message: &str) -> Scripted {
    Scripted::error(
        status,
        json!({"error": {"code": status, "message": message, "status": "UNAVAILABLE"}}),
    )
}

pub fn responses_output(output: Value, usage: (u64, u64)) -> Scripted {
    Scripted::json(json!({
        "id": "resp_test", "object": "response", "status": "completed", "model": "computer-use-preview",
        "output": output,
        "usage": {"input_tokens": usage.0, "output_tokens": usage.1, "total_tokens": usage.0 + usage.1, "input_tokens_details": {"cached_tokens": 0}}
    }))
}
