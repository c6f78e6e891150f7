//! `prune serve` from outside: the server started on a free port, its API driven over HTTP as
//! the page drives it — positions and moves, searches with their event streams, stop, the
//! limits, every kind of bad request — and a load of concurrent analyses.

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// A running `prune serve`, killed when dropped.
struct Server {
    child: Child,
    url: String,
    agent: ureq::Agent,
}

impl Drop for Server {
    fn drop(&mut self) {
        self.child.kill().ok();
        self.child.wait().ok();
    }
}

impl Server {
    fn start(extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_prune"))
            .args(["serve", "--port", "0"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("prune serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .trim_end_matches('/')
            .to_string();
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(120)))
            .build()
            .into();
        Server { child, url, agent }
    }

    fn get(&self, path: &str) -> (u16, String) {
        let mut r = self
            .agent
            .get(format!("{}{path}", self.url))
            .call()
            .unwrap();
        let status = r.status().as_u16();
        (status, r.body_mut().read_to_string().unwrap())
    }

    fn post(&self, path: &str, body: &str) -> (u16, Value) {
        let mut r = self
            .agent
            .post(format!("{}{path}", self.url))
            .header("content-type", "application/json")
            .send(body)
            .unwrap();
        let status = r.status().as_u16();
        let text = r.body_mut().read_to_string().unwrap();
        let value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
        (status, value)
    }

    /// Starts a search; its id.
    fn search(&self, request: Value) -> String {
        let (status, v) = self.post("/api/search", &request.to_string());
        assert_eq!(status, 202, "{v}");
        v["id"].as_str().unwrap().to_string()
    }

    /// Every event of search `id`, read from its stream to the end.
    fn events(&self, id: &str) -> Vec<Value> {
        let r = self
            .agent
            .get(format!("{}/api/search/{id}/events", self.url))
            .call()
            .unwrap();
        let mut text = String::new();
        r.into_body()
            .into_reader()
            .read_to_string(&mut text)
            .unwrap();
        text.lines()
            .filter_map(|l| l.strip_prefix("data: "))
            .map(|d| serde_json::from_str(d).unwrap())
            .collect()
    }
}

fn prune_json(args: &[&str]) -> Value {
    let o = Command::new(env!("CARGO_BIN_EXE_prune"))
        .args(args)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

#[test]
fn a_search_streams_its_iterations_and_agrees_with_the_command_line() {
    let server = Server::start(&[]);
    let (status, page) = server.get("/");
    assert_eq!(status, 200);
    assert!(page.contains("app.js"));
    let id = server.search(json!({
        "game": "othello",
        "engine": "generic",
        "config": {"preset": "full", "algorithm": "negascout"},
        "limits": {"depth": 6},
    }));
    let events = server.events(&id);
    let last = events.last().unwrap();
    assert_eq!(last["type"], "done", "{events:?}");
    let iterations = events.iter().filter(|e| e["type"] == "iteration").count();
    assert_eq!(iterations, 6, "one event per depth of iterative deepening");
    let cli = prune_json(&[
        "search",
        "--game",
        "othello",
        "--preset",
        "full",
        "-a",
        "negascout",
        "--depth",
        "6",
        "--threads",
        "1",
        "--json",
    ]);
    let result = &last["result"];
    assert_eq!(result["score"], cli["score"]);
    assert_eq!(result["best_move"], cli["best_move"]);
    // The move is legal: playing it works.
    let mv = result["best_move"].as_str().unwrap();
    let (status, after) = server.post(
        "/api/play",
        &json!({"game": "othello", "move": mv}).to_string(),
    );
    assert_eq!(status, 200, "{after}");
    // The fast search and tic-tac-toe's proven draw too.
    let fast = server.events(&server.search(json!({"game": "othello", "limits": {"depth": 6}})));
    assert_eq!(fast.last().unwrap()["result"]["engine"], "fast");
    let ttt = server
        .events(&server.search(json!({"game": "tictactoe", "config": {"algorithm": "negascout"}})));
    assert_eq!(ttt.last().unwrap()["result"]["score"]["kind"], "draw");
}

#[test]
fn an_analysis_scores_every_legal_move_and_solves_small_endgames() {
    let server = Server::start(&[]);
    let events = server.events(&server.search(json!({
        "game": "othello", "analyze": true, "limits": {"depth": 3},
    })));
    let moves: Vec<&Value> = events.iter().filter(|e| e["type"] == "move").collect();
    assert_eq!(moves.len(), 4, "{events:?}");
    let done = &events.last().unwrap()["result"];
    assert_eq!(done["moves"].as_array().unwrap().len(), 4);
    // Ten empties, reached by playing the first legal move each time: every move's score is
    // exact.
    let mut view = server.post("/api/position", r#"{"game":"othello"}"#).1;
    loop {
        let empties: usize = view["cells"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_str().unwrap().matches('-').count())
            .sum();
        if empties <= 10 {
            break;
        }
        let mv = view["legal"][0]["move"].as_str().unwrap().to_string();
        let body = json!({"game": "othello", "position": view["position"], "move": mv});
        let (status, next) = server.post("/api/play", &body.to_string());
        assert_eq!(status, 200, "{next}");
        view = next;
    }
    assert!(view["outcome"].is_null(), "{view}");
    let endgame = view["position"].as_str().unwrap();
    let events = server.events(&server.search(json!({
        "game": "othello", "position": endgame, "analyze": true,
    })));
    let moves: Vec<&Value> = events.iter().filter(|e| e["type"] == "move").collect();
    assert!(!moves.is_empty());
    assert!(moves.iter().all(|m| m["exact"] == true), "{moves:?}");
    // MCTS on Connect Four, by playouts.
    let mcts = server.events(&server.search(json!({
        "game": "connect4", "engine": "mcts", "config": {"playouts": 2000},
    })));
    let done = &mcts.last().unwrap()["result"];
    assert_eq!(done["stats"]["playouts"], 2000, "{done}");
    // Proof-number search by its algorithm's name: tic-tac-toe is a draw, and X to move with
    // two in the top row wins.
    for algorithm in ["pns", "dfpn", "dfpn+"] {
        let events = server.events(&server.search(json!({
            "game": "tictactoe", "config": {"algorithm": algorithm},
        })));
        let done = &events.last().unwrap()["result"];
        assert_eq!(done["proof"], "draw", "{done}");
        assert_eq!(done["algorithm"], algorithm, "{done}");
        let events = server.events(&server.search(json!({
            "game": "tictactoe", "position": "XX./OO./...", "config": {"algorithm": algorithm},
        })));
        let done = &events.last().unwrap()["result"];
        assert_eq!(done["proof"], "win", "{done}");
        assert_eq!(done["best_move"], "c1", "{done}");
    }
    let (status, v) = server.post(
        "/api/search",
        &json!({"game": "tictactoe", "config": {"algorithm": "dfpn", "history": true}}).to_string(),
    );
    assert_eq!(status, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("proof-number"), "{v}");
}

#[test]
fn stop_ends_a_long_search_and_the_search_limit_holds() {
    let server = Server::start(&["--max-searches", "1"]);
    let id = server.search(json!({
        "game": "othello", "engine": "generic", "config": {"preset": "plain"},
        "limits": {"depth": 30, "time_ms": 50000},
    }));
    // One search at a time: the next is refused while the first runs.
    let (status, v) = server.post("/api/search", &json!({"game": "tictactoe"}).to_string());
    assert_eq!(status, 429, "{v}");
    assert!(v["error"].as_str().unwrap().contains("--max-searches"));
    std::thread::sleep(Duration::from_millis(300));
    let began = Instant::now();
    let (status, _) = server.post(&format!("/api/search/{id}/stop"), "");
    assert_eq!(status, 200);
    let events = server.events(&id);
    assert!(
        began.elapsed() < Duration::from_secs(20),
        "stopped in {:?}",
        began.elapsed()
    );
    let done = &events.last().unwrap()["result"];
    assert_eq!(done["interrupted"], true, "{done}");
    assert!(done["best_move"].is_string());
    // The slot is free again.
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let (status, _) = server.post("/api/search", &json!({"game": "tictactoe"}).to_string());
        if status == 202 {
            break;
        }
        assert!(Instant::now() < deadline, "the slot was not freed");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn bad_requests_get_a_4xx_that_names_the_problem_and_the_server_goes_on() {
    let server = Server::start(&["--max-depth", "12", "--max-tt-mb", "16"]);
    let cases: &[(&str, &str, u16, &str)] = &[
        ("/api/search", "{not json", 400, "JSON"),
        (
            "/api/search",
            r#"{"game":"othello","bogus":1}"#,
            422,
            "unknown field `bogus`",
        ),
        (
            "/api/search",
            r#"{"game":"chess"}"#,
            400,
            "unknown game 'chess'",
        ),
        (
            "/api/search",
            r#"{"game":"othello","position":"XO"}"#,
            400,
            "position:",
        ),
        (
            "/api/search",
            r#"{"game":"othello","limits":{"depth":13}}"#,
            400,
            "--max-depth",
        ),
        (
            "/api/search",
            r#"{"game":"othello","config":{"tt_mb":64}}"#,
            400,
            "--max-tt-mb",
        ),
        (
            "/api/search",
            r#"{"game":"othello","engine":"quantum"}"#,
            400,
            "unknown engine",
        ),
        (
            "/api/search",
            r#"{"game":"othello","eval":"/etc/passwd"}"#,
            400,
            "unknown evaluation '/etc/passwd' of othello (expected pattern, hand)",
        ),
        (
            "/api/search",
            r#"{"game":"connect4","engine":"fast"}"#,
            400,
            "connect4 has no engine of its own",
        ),
        (
            "/api/search",
            r#"{"game":"othello","config":{"algorithm":"minimax","history":true}}"#,
            400,
            "config:",
        ),
        (
            "/api/search",
            r#"{"game":"othello","threads":100000}"#,
            400,
            "--max-threads",
        ),
        (
            "/api/play",
            r#"{"game":"othello","move":"a1"}"#,
            400,
            "'a1' is not legal",
        ),
        (
            "/api/play",
            r#"{"game":"tictactoe","position":"XXX/OO./...","move":"c3"}"#,
            400,
            "the game is over",
        ),
        (
            "/api/position",
            r#"{"game":"connect4","position":"4444444"}"#,
            400,
            "position:",
        ),
        (
            "/api/tree",
            r#"{"game":"othello","depth":20}"#,
            400,
            "depth: 20",
        ),
        ("/api/search/99/stop", "", 404, "no search 99"),
        ("/api/search/abc/stop", "", 400, "not a number"),
    ];
    for (path, body, status, words) in cases {
        let (got, v) = server.post(path, body);
        assert_eq!(got, *status, "{path} {body}: {v}");
        let error = v["error"].as_str().unwrap_or_else(|| panic!("{v}"));
        assert!(
            error.contains(words),
            "{path} {body}: '{words}' not in '{error}'"
        );
    }
    let (status, body) = server.get("/api/nothing");
    assert_eq!(status, 404, "{body}");
    let (status, _) = server.get("/lab/../Cargo.toml");
    assert_eq!(status, 404);
    // Still answering.
    let (status, body) = server.get("/api/games");
    assert_eq!(status, 200);
    assert!(body.contains("othello"));
}

#[test]
fn the_tree_and_the_lab_reports_are_served() {
    let server = Server::start(&[]);
    let (status, v) = server.post(
        "/api/tree",
        &json!({"game": "tictactoe", "position": "XO./.X./...", "depth": 2, "config": {"algorithm": "alphabeta"}}).to_string(),
    );
    assert_eq!(status, 200, "{v}");
    let svg = v["svg"].as_str().unwrap();
    assert!(
        svg.starts_with("<svg") || svg.contains("<svg"),
        "{}",
        &svg[..80.min(svg.len())]
    );
    assert!(svg.contains("<title>"));
    let (status, index) = server.get("/lab/");
    assert_eq!(status, 200);
    assert!(index.contains("/lab/mcts-vs-alphabeta/"));
    let (status, report) = server.get("/lab/mcts-vs-alphabeta/");
    assert_eq!(status, 200);
    assert!(report.contains("<table>") && report.contains("mcts-strength.svg"));
    let (status, plot) = server.get("/lab/mcts-vs-alphabeta/mcts-strength.svg");
    assert_eq!(status, 200);
    assert!(plot.contains("<svg"));
}

/// The page's script is a module that imports the others: every module it reaches is
/// served (a missing one would leave the page blank), and an unknown one is not.
#[test]
fn every_module_of_the_page_is_served() {
    let server = Server::start(&[]);
    let (_, page) = server.get("/");
    assert!(page.contains(r#"<script type="module" src="/js/app.js">"#));
    let mut seen = std::collections::BTreeSet::new();
    let mut queue = vec!["app.js".to_string()];
    while let Some(file) = queue.pop() {
        if !seen.insert(file.clone()) {
            continue;
        }
        let (status, text) = server.get(&format!("/js/{file}"));
        assert_eq!(status, 200, "/js/{file}: {text}");
        for line in text.lines() {
            if let Some(rest) = line.split("from './").nth(1) {
                queue.push(rest.split('\'').next().unwrap().to_string());
            }
        }
    }
    assert!(seen.len() >= 8 && seen.contains("board.js"), "{seen:?}");
    let (status, text) = server.get("/js/missing.js");
    assert_eq!(status, 404, "{text}");
    assert!(text.contains("/js/missing.js"), "{text}");
}

/// The resident memory of process `pid`, in KiB (Linux).
fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
fn a_load_of_concurrent_analyses_is_held_to_the_limit_and_none_is_lost() {
    const CLIENTS: usize = 12;
    const MAX: usize = 3;
    let server = Server::start(&["--max-searches", &MAX.to_string()]);
    let before = rss_kib(server.child.id());
    // Three long searches hold every slot while the clients arrive, so that they must wait.
    let holders: Vec<String> = (0..MAX)
        .map(|_| {
            server.search(json!({
                "game": "othello", "engine": "generic", "config": {"preset": "plain"},
                "limits": {"depth": 30, "time_ms": 50000},
            }))
        })
        .collect();
    let began = Instant::now();
    let (refused, finished, peak) = std::thread::scope(|scope| {
        let clients: Vec<_> = (0..CLIENTS)
            .map(|i| {
                let server = &server;
                scope.spawn(move || {
                    let request = json!({
                        "game": if i % 2 == 0 { "tictactoe" } else { "connect4" },
                        "analyze": true,
                        "limits": {"depth": 4, "time_ms": 2000},
                    })
                    .to_string();
                    let mut refused = 0;
                    let id = loop {
                        let (status, v) = server.post("/api/search", &request);
                        match status {
                            202 => break v["id"].as_str().unwrap().to_string(),
                            429 => refused += 1,
                            other => panic!("status {other}: {v}"),
                        }
                        assert!(began.elapsed() < Duration::from_secs(120), "never admitted");
                        std::thread::sleep(Duration::from_millis(20));
                    };
                    let events = server.events(&id);
                    (
                        refused,
                        events.last().map(|e| e["type"] == "done").unwrap_or(false),
                    )
                })
            })
            .collect();
        // Let the clients be refused for a while, then free the slots.
        std::thread::sleep(Duration::from_millis(300));
        for id in &holders {
            let (status, _) = server.post(&format!("/api/search/{id}/stop"), "");
            assert_eq!(status, 200);
        }
        // Watch the number of running searches meanwhile.
        let mut peak = 0;
        while clients.iter().any(|c| !c.is_finished()) {
            let (_, body) = server.get("/api/status");
            let v: Value = serde_json::from_str(&body).unwrap();
            peak = peak.max(v["running"].as_u64().unwrap());
            std::thread::sleep(Duration::from_millis(5));
        }
        let results: Vec<(u32, bool)> = clients.into_iter().map(|c| c.join().unwrap()).collect();
        let refused: u32 = results.iter().map(|r| r.0).sum();
        let finished = results.iter().filter(|r| r.1).count();
        (refused, finished, peak)
    });
    assert_eq!(finished, CLIENTS, "every analysis ends with its result");
    assert!(peak as usize <= MAX, "{peak} searches ran at once");
    assert!(
        refused > 0,
        "the clients met three busy slots: they must have waited"
    );
    if let (Some(a), Some(b)) = (before, rss_kib(server.child.id())) {
        assert!(b < a + 512 * 1024, "memory grew from {a} KiB to {b} KiB");
    }
    let (status, _) = server.get("/api/games");
    assert_eq!(status, 200);
}

#[test]
fn shogi_is_on_the_page_with_its_hands_its_evaluations_and_its_words() {
    let server = Server::start(&[]);
    let (status, games) = server.get("/api/games");
    assert_eq!(status, 200);
    let games: Value = serde_json::from_str(&games).unwrap();
    let shogi = games["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["name"] == "shogi")
        .expect("shogi is a page game");
    assert_eq!(shogi["evals"], json!(["hand", "material"]));
    assert!(shogi["native_engine"]
        .as_str()
        .unwrap()
        .contains("shogi engine"));
    // After 7g7f 3c3d 8h2b+ 3a2b Black holds a bishop: 43 drops onto the empty squares.
    let sfen = "lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b B 5";
    let (status, view) = server.post(
        "/api/position",
        &json!({"game": "shogi", "position": sfen}).to_string(),
    );
    assert_eq!(status, 200, "{view}");
    assert_eq!(
        (view["width"].as_u64(), view["style"].as_str()),
        (Some(9), Some("pieces"))
    );
    assert_eq!(
        view["hands"][0],
        json!({"owner": "X", "pieces": [["B", 1]]})
    );
    assert_eq!(view["labels"][0][0], "L");
    let legal = view["legal"].as_array().unwrap();
    let drops = legal.iter().filter(|m| m["drop"] == "B").count();
    assert_eq!(drops, 43);
    let (status, after) = server.post(
        "/api/play",
        &json!({"game": "shogi", "position": sfen, "move": "B*5e"}).to_string(),
    );
    assert_eq!(status, 200, "{after}");
    assert_eq!(
        after["position"],
        "lnsgkg1nl/1r5s1/pppppp1pp/6p2/4B4/2P6/PP1PPPPPP/7R1/LNSGKGSNL w - 6"
    );
    // A search in shogi's words, by the shogi engine (the default) and the generic one, with
    // either evaluation; an unknown one is named.
    for (engine, eval) in [
        ("fast", "hand"),
        ("fast", "material"),
        ("generic", "material"),
    ] {
        let events = server.events(&server.search(json!({
            "game": "shogi", "position": sfen, "eval": eval, "engine": engine,
            "limits": {"depth": 2},
        })));
        let result = &events.last().unwrap()["result"];
        let text = result["score_text"].as_str().unwrap();
        assert!(text.ends_with(" cp"), "{engine} {eval}: {text}");
        assert_eq!(result["engine"], engine);
        assert!(
            legal.iter().any(|m| m["move"] == result["best_move"]),
            "{result}"
        );
    }
    // A mate in one: Black's gold drop on 1b (held by the pawn of 1c) mates the king of 1a.
    let mate = "8k/9/8P/9/9/9/9/9/K8 b G 1";
    let events = server.events(&server.search(json!({
        "game": "shogi", "position": mate, "limits": {"depth": 3},
    })));
    let result = &events.last().unwrap()["result"];
    assert_eq!(result["best_move"], "G*1b", "{result}");
    assert_eq!(result["score_text"], "win: mate in 1 ply");
    let (status, e) = server.post(
        "/api/search",
        &json!({"game": "shogi", "eval": "nnue"}).to_string(),
    );
    assert_eq!(status, 400);
    assert!(
        e["error"]
            .as_str()
            .unwrap()
            .contains("expected hand, material"),
        "{e}"
    );
    // Othello's scores read in discs.
    let events = server.events(&server.search(json!({"game": "othello", "limits": {"depth": 2}})));
    let text = events.last().unwrap()["result"]["score_text"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(text.ends_with(" discs"), "{text}");
    // With no limit asked, each game's own engine stops at the game's default depth (6), not
    // at the server's time cap.
    for game in ["othello", "shogi"] {
        let events = server.events(&server.search(json!({ "game": game })));
        let result = &events.last().unwrap()["result"];
        assert_eq!(result["engine"], "fast", "{result}");
        assert_eq!(result["depth"], 6, "{game}: {result}");
    }
}
