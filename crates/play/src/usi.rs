//! An external shogi engine that speaks USI (YaneuraOu, `prune usi`, any engine a shogi GUI
//! runs), as an [`Agent`].
//!
//! Started as a subprocess (as the NBoard client starts its engine), it is sent `usi` and must
//! answer `usiok` within [`ExternalOptions::start_timeout`] (`id name X` names it); then each
//! option of [`ExternalOptions::settings`] as `setoption name N value V`, and `isready`,
//! answered by `readyok`. Each game begins with `usinewgame`. For each move it is sent
//! `position startpos moves ...` (or `position sfen S moves ...`) and a `go` that says the
//! move's budget in USI's words: `go depth D`, `go nodes N`, the side's clock as it stands
//! (`go btime T wtime T byoyomi B` or `binc I winc I`: the engine manages its own time, as
//! under a GUI), or for a fixed time per move `go btime 0 wtime 0 byoyomi MS`. `info` lines
//! give the depth, nodes, score (`cp` or `mate`) and principal variation; `bestmove M` is the
//! answer. `bestmove resign` (and `win`, a declaration this arena does not judge) lose the game
//! as an error of the agent. Limits on the answer's time are those of
//! [`ExternalOptions::limit`].

use std::time::Instant;

use prune_shogi::engine::MATE;
use prune_shogi::{Move, Position};

use crate::external::{ExternalOptions, StartReport};
use crate::process::EngineLink;
use crate::{Agent, AgentError, Budget, GameRecord, Thought};

/// A USI engine run as a subprocess.
pub struct UsiEngine {
    link: EngineLink,
    options: ExternalOptions,
}

/// The name a USI engine gives itself: `id name NAME`.
fn usi_name(line: &str) -> Option<&str> {
    line.strip_prefix("id name ")
}

impl UsiEngine {
    /// Starts `command` (a program and its arguments, split on whitespace), checks that it
    /// speaks USI and sets its options; `report` is told while it starts.
    pub fn start(
        command: &str,
        options: ExternalOptions,
        report: Option<StartReport>,
    ) -> Result<UsiEngine, AgentError> {
        let mut engine = UsiEngine {
            link: EngineLink::new(command, report, usi_name)?,
            options,
        };
        engine.launch()?;
        Ok(engine)
    }

    /// Starts the process: `usi` … `usiok`, the options, `isready` … `readyok`.
    fn launch(&mut self) -> Result<(), AgentError> {
        self.link.spawn()?;
        self.link.send("usi")?;
        let (limit, every) = (self.options.start_timeout, self.options.report_every);
        self.link
            .wait_for_start(limit, every, "usiok", |l| l.trim() == "usiok")?;
        for (name, value) in self.options.settings.clone() {
            self.link
                .send(&format!("setoption name {name} value {value}"))?;
        }
        self.ready(limit)
    }

    /// `isready`, and its `readyok` within `limit`.
    fn ready(&mut self, limit: std::time::Duration) -> Result<(), AgentError> {
        self.link.send("isready")?;
        let every = self.options.report_every;
        self.link
            .wait_for_start(limit, every, "readyok", |l| l.trim() == "readyok")
    }
}

/// What `info` lines said so far.
#[derive(Default)]
struct Info {
    depth: u32,
    nodes: u64,
    /// Centipawns, mates as [`MATE`] less the plies.
    score: Option<i32>,
    pv: Vec<String>,
}

impl Info {
    /// Reads one `info` line (other lines and unknown words are passed over).
    fn read(&mut self, line: &str) {
        let mut words = line.split_whitespace();
        if words.next() != Some("info") {
            return;
        }
        while let Some(word) = words.next() {
            match word {
                "depth" => self.depth = number(words.next()).unwrap_or(self.depth),
                "nodes" => self.nodes = number(words.next()).unwrap_or(self.nodes),
                "score" => match (words.next(), words.next()) {
                    (Some("cp"), Some(v)) => self.score = v.parse().ok().or(self.score),
                    (Some("mate"), Some(v)) => {
                        let plies: Option<i32> = v.trim_start_matches('+').parse().ok();
                        self.score = match (plies, v.starts_with('-')) {
                            (Some(p), _) if p < 0 => Some(-MATE - p),
                            (Some(p), _) => Some(MATE - p),
                            (None, true) => Some(-MATE),
                            (None, false) => Some(MATE),
                        };
                    }
                    _ => {}
                },
                "pv" => {
                    self.pv = words.by_ref().map(str::to_string).collect();
                }
                // `string` runs to the end of the line.
                "string" => break,
                _ => {}
            }
        }
    }
}

/// A number of an `info` line.
fn number<T: std::str::FromStr>(word: Option<&str>) -> Option<T> {
    word?.parse().ok()
}

/// The `position` command of a game: from `startpos` where the game starts there.
pub fn position_command(game: &GameRecord<Position>) -> String {
    let start = if *game.start() == Position::start() {
        "startpos".to_string()
    } else {
        format!("sfen {}", game.start())
    };
    if game.moves().is_empty() {
        format!("position {start}")
    } else {
        format!("position {start} moves {}", game.line())
    }
}

/// The `go` command of a budget: its depth, its nodes, the side's clock as it stands (both
/// sides told the same: the engine reads its own), or else the move's time as byoyomi.
pub fn go_command(budget: &Budget) -> String {
    if let (None, None, Some(c)) = (budget.depth, budget.nodes, budget.clock) {
        let (t, inc) = (c.remaining.as_millis(), c.increment.as_millis());
        let mut go = format!("go btime {t} wtime {t}");
        if c.byoyomi.is_zero() {
            go.push_str(&format!(" binc {inc} winc {inc}"));
        } else {
            go.push_str(&format!(" byoyomi {}", c.byoyomi.as_millis()));
        }
        return go;
    }
    match (budget.depth, budget.nodes, budget.time) {
        (Some(d), _, _) => format!("go depth {d}"),
        (None, Some(n), _) => format!("go nodes {n}"),
        (None, None, Some(t)) => format!("go btime 0 wtime 0 byoyomi {}", t.as_millis().max(1)),
        (None, None, None) => "go infinite".into(),
    }
}

impl Agent<Position> for UsiEngine {
    fn name(&self) -> String {
        self.link.name.clone()
    }

    /// Starts the engine again if it failed in the last game; tells it a game begins.
    fn new_game(&mut self) {
        let started = if self.link.broken.is_some() {
            self.launch()
        } else {
            self.ready(self.options.start_timeout)
        };
        match started.and_then(|()| self.link.send("usinewgame")) {
            Ok(()) => {}
            Err(e) => self.link.broken = Some(e.0),
        }
    }

    fn choose(
        &mut self,
        game: &GameRecord<Position>,
        budget: &Budget,
    ) -> Result<Thought<Move>, AgentError> {
        if let Some(why) = &self.link.broken {
            return Err(AgentError(why.clone()));
        }
        if budget.time.is_none() && budget.depth.is_none() && budget.nodes.is_none() {
            return Err(AgentError(
                "a USI engine needs a depth, nodes or a time".into(),
            ));
        }
        let start = Instant::now();
        let deadline = start + self.options.limit(budget);
        self.link.send(&position_command(game))?;
        self.link.send(&go_command(budget))?;
        let waiting = "while thinking about a move";
        let mut info = Info::default();
        loop {
            let line = self.link.read_line(deadline, waiting)?;
            info.read(&line);
            let mut words = line.split_whitespace();
            if words.next() != Some("bestmove") {
                continue;
            }
            let answer = words.next().unwrap_or_default();
            if answer == "resign" || answer == "win" {
                return Err(AgentError(format!("{}: {answer}", self.link.name)));
            }
            let mv = game
                .current()
                .parse_move(answer)
                .map_err(|e| AgentError(format!("{}: bestmove '{answer}': {e}", self.link.name)))?;
            let exact = info.score.is_some_and(|s| s.abs() >= MATE - 1_000);
            let mut pv: Vec<Move> = Vec::new();
            let mut p = game.current().clone();
            for word in &info.pv {
                match p.parse_move(word) {
                    Ok(m) if p.legal_moves().contains(&m) => {
                        pv.push(m);
                        p = p.play(m);
                    }
                    _ => break,
                }
            }
            if pv.first() != Some(&mv) {
                pv = vec![mv];
            }
            return Ok(Thought {
                mv,
                eval: f64::from(info.score.unwrap_or(0)),
                exact,
                depth: info.depth,
                pv,
                nodes: info.nodes,
                time: start.elapsed(),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn info_lines_are_read_word_by_word() {
        let mut info = Info::default();
        info.read("info depth 7 seldepth 9 score cp -35 nodes 12345 nps 1000 pv 7g7f 3c3d");
        assert_eq!((info.depth, info.nodes, info.score), (7, 12345, Some(-35)));
        assert_eq!(info.pv, ["7g7f", "3c3d"]);
        info.read("info depth 9 score mate 3 pv G*1b");
        assert_eq!(info.score, Some(MATE - 3));
        info.read("info score mate -4");
        assert_eq!(info.score, Some(-MATE + 4));
        info.read("info string depth 99 nodes 1");
        assert_eq!(info.depth, 9);
        info.read("bestmove 7g7f");
        assert_eq!(info.depth, 9);
    }

    #[test]
    fn positions_and_budgets_in_usi() {
        let mut game = GameRecord::new(Position::start());
        assert_eq!(position_command(&game), "position startpos");
        game.play(Position::start().parse_move("7g7f").unwrap())
            .unwrap();
        assert_eq!(position_command(&game), "position startpos moves 7g7f");
        let sfen = "8k/9/8P/9/9/9/9/9/K8 b G 1";
        let game = GameRecord::new(sfen.parse::<Position>().unwrap());
        assert_eq!(position_command(&game), format!("position sfen {sfen}"));
        assert_eq!(go_command(&Budget::depth(3)), "go depth 3");
        assert_eq!(go_command(&Budget::nodes(500)), "go nodes 500");
        assert_eq!(
            go_command(&Budget::time(Duration::from_millis(90))),
            "go btime 0 wtime 0 byoyomi 90"
        );
        let clock = crate::Clock::new("byoyomi:100".parse().unwrap());
        assert_eq!(
            go_command(&clock.budget(60)),
            "go btime 0 wtime 0 byoyomi 100"
        );
        let clock = crate::Clock::new("60+2".parse().unwrap());
        assert_eq!(
            go_command(&clock.budget(60)),
            "go btime 60000 wtime 60000 binc 2000 winc 2000"
        );
    }
}
