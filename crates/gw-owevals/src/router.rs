//! Task-level routing (Optimus-3 §3.2): each query kind goes to one expert,
//! chosen before the model runs. Optimus-3 routes inside one MoE model with
//! a Sentence-BERT classifier over the instruction; here the items carry
//! their kind, and a YAML file names the model profile (a
//! `registry/models/<id>.yaml`) that answers each kind:
//!
//! ```yaml
//! id: optimus3
//! routes:
//!   planning: qwen3-vl-235b-a22b
//!   caption: qwen3-vl-30b-a3b     # caption and eqa: the perception expert
//!   eqa: qwen3-vl-30b-a3b
//!   grounding: qwen2.5-vl-32b-instruct
//!   reflection: qwen3-vl-235b-a22b
//! default: qwen3-vl-30b-a3b       # optional: kinds without a route
//! ```

use crate::Kind;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Router {
    pub id: String,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub routes: BTreeMap<String, String>,
    #[serde(default)]
    pub default: Option<String>,
}

impl Router {
    /// Every kind to one model.
    pub fn single(model: &str) -> Router {
        Router {
            id: format!("single:{model}"),
            description: None,
            routes: BTreeMap::new(),
            default: Some(model.to_string()),
        }
    }

    /// Parse and check a router: route keys must be kinds.
    pub fn parse(text: &str, origin: &str) -> Result<Router, String> {
        let r: Router = serde_saphyr::from_str(text).map_err(|e| {
            format!(
                "{origin}: not a router ({e}); write `id:` and `routes:` mapping kinds to model ids"
            )
        })?;
        for k in r.routes.keys() {
            Kind::parse(k).map_err(|e| format!("{origin}: routes: {e}"))?;
        }
        if r.routes.is_empty() && r.default.is_none() {
            return Err(format!(
                "{origin}: the router has no routes and no default model"
            ));
        }
        Ok(r)
    }

    pub fn load(path: &Path) -> Result<Router, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read router {}: {e}", path.display()))?;
        Router::parse(&text, &path.display().to_string())
    }

    /// The model id for a kind.
    pub fn model_for(&self, kind: Kind) -> Result<&str, String> {
        self.routes
            .get(kind.as_str())
            .or(self.default.as_ref())
            .map(String::as_str)
            .ok_or_else(|| {
                format!(
                    "router \"{}\" has no route for {kind} and no default; add `{kind}: <model id>` under routes",
                    self.id
                )
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_kinds_and_falls_back_to_the_default() {
        let r = Router::parse(
            "id: t\nroutes:\n  planning: a\n  eqa: b\ndefault: c\n",
            "t.yaml",
        )
        .unwrap();
        assert_eq!(r.model_for(Kind::Planning).unwrap(), "a");
        assert_eq!(r.model_for(Kind::Eqa).unwrap(), "b");
        assert_eq!(r.model_for(Kind::Grounding).unwrap(), "c");
        let e = Router::parse("id: t\nroutes:\n  plans: a\n", "t.yaml").unwrap_err();
        assert!(e.contains("unknown eval kind \"plans\""), "{e}");
        let r = Router::parse("id: t\nroutes:\n  planning: a\n", "t.yaml").unwrap();
        assert!(
            r.model_for(Kind::Caption)
                .unwrap_err()
                .contains("no route for caption")
        );
    }

    #[test]
    fn the_shipped_optimus3_router_routes_every_kind() {
        let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../registry/routers/optimus3.yaml");
        let r = Router::load(&p).unwrap();
        for k in Kind::ALL {
            assert!(r.model_for(k).is_ok(), "{k}");
        }
        assert_eq!(
            r.model_for(Kind::Caption).unwrap(),
            r.model_for(Kind::Eqa).unwrap()
        );
    }
}
