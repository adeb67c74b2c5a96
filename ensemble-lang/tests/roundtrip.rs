//! Parse, print, parse round trips: every published and example script,
//! and random syntax trees and random models from `proptest` (which
//! shrinks a failure to a minimal script), print back to text that parses
//! to the same tree or model, apart from source positions.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use ensemble_lang::ast::*;
use ensemble_lang::model::*;
use ensemble_lang::print;
use proptest::prelude::*;

use common::*;

fn syntax(src: &str, file: &Path) -> Script {
    ensemble_lang::parse_syntax(src, file)
        .unwrap_or_else(|d| panic!("{}: {}\n{src}", file.display(), render(&d)))
}

fn model(src: &str, file: &Path) -> Application {
    ensemble_lang::parse_str(src, file, &BTreeMap::new())
        .unwrap_or_else(|d| panic!("{}: {}\n{src}", file.display(), render(&d)))
}

fn bare(mut s: Script) -> Script {
    s.clear_spans();
    s
}

#[test]
fn every_published_and_example_script_round_trips() {
    let files = script_paths();
    let published = files
        .iter()
        .filter(|p| p.starts_with(published_dir()))
        .count();
    assert_eq!(published, 3, "the three published compositions");
    assert!(files.len() >= 8, "example compositions missing: {files:?}");
    for path in files {
        let src = std::fs::read_to_string(&path).unwrap();
        let tree = syntax(&src, &path);
        let app = model(&src, &path);

        // The syntax tree, printed, reads back as the same tree and model.
        let text = print::script(&tree);
        let again = syntax(&text, &path);
        assert_eq!(
            bare(again),
            bare(tree.clone()),
            "{}:\n{text}",
            path.display()
        );
        assert_eq!(
            model(&text, &path).without_places(),
            app.without_places(),
            "{}:\n{text}",
            path.display()
        );
        // Printing is stable: the reprinted text is the same text.
        assert_eq!(print::script(&syntax(&text, &path)), text);

        // The expanded model, printed without rules, gives the same model.
        let explicit = print::application(&app);
        assert_eq!(
            model(&explicit, &path).without_places(),
            app.without_places(),
            "{}:\n{explicit}",
            path.display()
        );
    }
}

#[test]
fn published_tree_prints_as_a_readable_script() {
    let path = published_dir().join("getmax-tree.ens");
    let app = model(&std::fs::read_to_string(&path).unwrap(), &path);
    let text = print::application(&app);
    for line in [
        "Application Get-Maximum-Tree",
        "T[1..8] #ports = S:1;",
        "R[2..3] #ports = C:2, P:1;",
        "R[7] #ports = C:2, P:0;",
        "R[7].C[2] <-> R[6].P[1];",
        "environment PVM3;",
        "R: \"relay\";",
    ] {
        assert!(text.lines().any(|l| l == line), "`{line}` missing:\n{text}");
    }
}

#[test]
fn expressions_keep_their_grouping() {
    let file = Path::new("expr.ens");
    for e in [
        "(1 - 2) - 3",
        "1 - (2 - 3)",
        "-(a + b) * c",
        "- -a",
        "!(a < b) || (c && d)",
        "a < b < c",
        "a < (b < c)",
        "max(1, (2 + 3) * 4, abs(-x)) % 5",
    ] {
        let src = format!("Application E\nParameters\nX = {e};\n");
        let tree = syntax(&src, file);
        let text = print::script(&tree);
        assert_eq!(
            bare(syntax(&text, file)),
            bare(tree),
            "{e} printed as:\n{text}"
        );
    }
    // Only the parentheses that change the grouping are written.
    let tree = syntax("Application E\nParameters\nX = ((a * (b)) + (c));\n", file);
    assert!(print::script(&tree).contains("X = a * b + c;"));
}

#[test]
fn hosts_and_strings_that_need_quotes_are_quoted() {
    assert_eq!(print::host("node-1.lan"), "node-1.lan");
    assert_eq!(print::host("orion"), "orion");
    for h in ["node-01", "a..b", "1st", "two words", "", "x-for", "-a"] {
        assert_eq!(print::host(h), print::string(h), "{h}");
    }
    assert_eq!(print::string(r#"a"b\c"#), r#""a\"b\\c""#);
}

// ---- random syntax trees ----

const COMPONENTS: &[&str] = &["T", "R", "Srv", "node_2"];
const PORT_TYPES: &[&str] = &["S", "C", "P", "Out", "In2"];
const VARS: &[&str] = &["i", "j", "k", "N", "Rows"];
const FUNCS: &[&str] = &["min", "max", "abs", "f"];
const WORDS: &[&str] = &["Ctx", "LocalGroup", "CalcRoot", "RingSize", "TG"];
const UNARY_OPS: &[&str] = &["-", "!"];
const BINARY_OPS: &[&str] = &[
    "||", "&&", "==", "!=", "<", "<=", ">", ">=", "+", "-", "*", "/", "%",
];
const ENVIRONMENTS: &[&str] = &["PVM3", "MPI", "Linda"];
const ANNOTATIONS: &[&str] = &["PVM3", "PVM", "MPI"];

fn sp() -> Span {
    Span::default()
}

fn pick(pool: &'static [&'static str]) -> impl Strategy<Value = String> {
    prop::sample::select(pool).prop_map(str::to_string)
}

fn int() -> impl Strategy<Value = i64> {
    prop_oneof![4 => 0..20i64, 1 => 0..=i64::MAX]
}

fn expr() -> impl Strategy<Value = Expr> {
    let leaf = prop_oneof![
        int().prop_map(|n| Expr::Int(n, sp())),
        pick(VARS).prop_map(|n| Expr::Name(n, sp())),
    ];
    leaf.prop_recursive(4, 24, 3, |inner| {
        prop_oneof![
            (prop::sample::select(UNARY_OPS), inner.clone()).prop_map(|(op, a)| Expr::Unary(
                op,
                Box::new(a),
                sp()
            )),
            (
                prop::sample::select(BINARY_OPS),
                inner.clone(),
                inner.clone()
            )
                .prop_map(|(op, a, b)| Expr::Binary(
                    op,
                    Box::new(a),
                    Box::new(b),
                    sp()
                )),
            (pick(FUNCS), prop::collection::vec(inner, 0..3)).prop_map(|(f, args)| Expr::Call(
                f,
                args,
                sp()
            )),
        ]
    })
}

fn proc_ref(allow_range: bool) -> impl Strategy<Value = ProcRef> {
    let index = if allow_range {
        prop_oneof![
            expr().prop_map(IndexSet::One),
            (expr(), expr()).prop_map(|(a, b)| IndexSet::Range(a, b)),
        ]
        .boxed()
    } else {
        expr().prop_map(IndexSet::One).boxed()
    };
    (pick(COMPONENTS), index).prop_map(|(component, index)| ProcRef {
        component,
        index,
        span: sp(),
    })
}

fn procs() -> impl Strategy<Value = Vec<ProcRef>> {
    prop::collection::vec(proc_ref(true), 1..3)
}

fn rule() -> impl Strategy<Value = Option<ForClause>> {
    prop::option::of(
        (
            prop::collection::vec(
                (pick(VARS), expr(), expr()).prop_map(|(v, lo, hi)| (v, lo, hi, sp())),
                1..3,
            ),
            prop::option::of(expr()),
        )
            .prop_map(|(vars, cond)| ForClause { vars, cond }),
    )
}

fn value() -> impl Strategy<Value = Value> {
    prop_oneof![
        expr().prop_map(Value::Int),
        "[ -~]{0,10}".prop_map(|s| Value::Str(s, sp())),
    ]
}

fn endpoint() -> impl Strategy<Value = EndpointRef> {
    (pick(COMPONENTS), expr(), pick(PORT_TYPES), expr()).prop_map(
        |(component, index, port_type, port)| EndpointRef {
            component,
            index,
            port_type,
            port,
            span: sp(),
            port_span: sp(),
        },
    )
}

fn host() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z][a-z0-9]{0,5}(\\.[a-z]{1,4}|-[0-9]{1,3}){0,3}",
        "[ -~]{0,10}",
    ]
}

fn app_name() -> impl Strategy<Value = String> {
    "[A-Za-z][A-Za-z0-9_-]{0,8}( [A-Za-z0-9_-]{1,8}){0,2}"
}

fn v<T: std::fmt::Debug>(s: impl Strategy<Value = T>) -> impl Strategy<Value = Vec<T>> {
    prop::collection::vec(s, 0..4)
}

fn script_tree() -> impl Strategy<Value = Script> {
    let pcg = (
        app_name(),
        v((pick(VARS), expr()).prop_map(|(n, e)| (n, e, sp()))),
        v((
            procs(),
            v((pick(PORT_TYPES), expr()).prop_map(|(t, e)| (t, e, sp()))),
            rule(),
        )
            .prop_map(|(procs, ports, rule)| ComponentDecl {
                procs,
                ports,
                rule,
                span: sp(),
            })),
        v(prop_oneof![
            prop::collection::vec(pick(PORT_TYPES), 1..4).prop_map(|types| CompatRule {
                types,
                class: true,
                span: sp()
            }),
            (pick(PORT_TYPES), pick(PORT_TYPES)).prop_map(|(a, b)| CompatRule {
                types: vec![a, b],
                class: false,
                span: sp()
            }),
        ]),
        v(
            (endpoint(), endpoint(), prop::option::of(expr()), rule()).prop_map(
                |(a, b, tag, rule)| ConnectionDecl {
                    a,
                    b,
                    tag,
                    rule,
                    span: sp(),
                },
            ),
        ),
    );
    let parallel = (
        prop::option::of(prop::sample::select(ENVIRONMENTS).prop_map(|n| EnvDecl {
            name: n.to_string(),
            span: sp(),
        })),
        prop::option::of(prop::sample::select(ANNOTATIONS)),
        any::<bool>(),
        v((
            proc_ref(true),
            pick(WORDS),
            pick(WORDS),
            prop::option::of(expr()),
            rule(),
        )
            .prop_map(|(p, context, group, index, rule)| ContextDecl {
                procs: vec![p],
                context,
                group: GroupName {
                    name: group,
                    index,
                    span: sp(),
                },
                rule,
                span: sp(),
            })),
        v((
            proc_ref(true),
            pick(WORDS),
            proc_ref(false),
            pick(WORDS),
            rule(),
        )
            .prop_map(|(p, root, target, context, rule)| RootDecl {
                procs: vec![p],
                root,
                target,
                context,
                rule,
                span: sp(),
            })),
        v(
            (proc_ref(true), pick(PORT_TYPES), pick(WORDS), rule()).prop_map(
                |(p, port_type, context, rule)| PortContextDecl {
                    procs: vec![p],
                    port_type,
                    context,
                    rule,
                    span: sp(),
                },
            ),
        ),
        v(
            (proc_ref(true), pick(WORDS), value(), rule()).prop_map(|(p, name, value, rule)| {
                ArgumentDecl {
                    procs: vec![p],
                    name,
                    value,
                    rule,
                    span: sp(),
                }
            }),
        ),
        v(
            (procs(), host(), rule()).prop_map(|(procs, host, rule)| AllocDecl {
                procs,
                host,
                host_span: sp(),
                rule,
            }),
        ),
    );
    let sequential = (
        v(
            (pick(COMPONENTS), "[ -~]{0,12}").prop_map(|(component, path)| LocationDecl {
                component,
                path,
                span: sp(),
            }),
        ),
        v(
            (procs(), prop::collection::vec(value(), 1..3), rule()).prop_map(
                |(procs, values, rule)| ProcParamDecl {
                    procs,
                    values,
                    rule,
                    span: sp(),
                },
            ),
        ),
        v(
            (procs(), expr(), rule()).prop_map(|(procs, weight, rule)| WeightDecl {
                procs,
                weight,
                rule,
                span: sp(),
            }),
        ),
    );
    (pcg, parallel, sequential).prop_map(
        |(
            (name, params, components, compat, connections),
            (
                environment,
                annotation,
                request_id,
                contexts,
                roots,
                port_contexts,
                arguments,
                allocation,
            ),
            (locations, proc_params, weights),
        )| Script {
            name,
            name_span: sp(),
            params,
            components,
            compat,
            connections,
            environment,
            annotation: annotation.map(|w| (w.to_string(), sp())),
            request_id: request_id.then(sp),
            allocation,
            contexts,
            roots,
            port_contexts,
            arguments,
            weights,
            locations,
            proc_params,
        },
    )
}

// ---- random models ----

/// Up to three entries (fewer when keys repeat).
fn map<K: Ord + std::fmt::Debug, T: std::fmt::Debug>(
    k: impl Strategy<Value = K>,
    t: impl Strategy<Value = T>,
) -> impl Strategy<Value = BTreeMap<K, T>> {
    prop::collection::vec((k, t), 0..4).prop_map(|v| v.into_iter().collect())
}

/// A model as expansion would give it: unique processes, channels between
/// them with default or distinct explicit tags, and the script facts that
/// expansion records.
fn application() -> impl Strategy<Value = Application> {
    let process = (
        pick(COMPONENTS),
        prop_oneof![4 => -3..12i64, 1 => any::<i64>()],
        prop::sample::subsequence(PORT_TYPES, 0..=3).prop_shuffle(),
        prop::collection::vec(0..4u32, 3),
        v(prop_oneof![
            "[ -~]{0,8}",
            any::<i64>().prop_map(|n| n.to_string())
        ]),
    )
        .prop_map(|(component, index, types, counts, params)| Process {
            component,
            index,
            ports: types
                .into_iter()
                .zip(counts)
                .map(|(t, count)| PortGroup {
                    port_type: t.to_string(),
                    count,
                })
                .collect(),
            params,
            span: sp(),
        });
    let procs = prop::collection::vec(process, 1..10).prop_map(|ps| {
        let mut seen = BTreeSet::new();
        ps.into_iter()
            .filter(|p| seen.insert((p.component.clone(), p.index)))
            .collect::<Vec<_>>()
    });
    (procs, any::<bool>(), app_name())
        .prop_flat_map(|(processes, is_mpi, name)| {
            let n = processes.len();
            let end = move || {
                (0..n, pick(PORT_TYPES), 0..5u32).prop_map(|(process, port_type, port)| Endpoint {
                    process,
                    port_type,
                    port,
                })
            };
            let channels = v((end(), end())).prop_flat_map(|ends| {
                let k = ends.len();
                prop_oneof![
                    Just((1..=k as i32).collect::<Vec<_>>()),
                    prop::collection::btree_set(1..i32::MAX, k)
                        .prop_map(|s| s.into_iter().collect::<Vec<_>>())
                        .prop_shuffle(),
                ]
                .prop_map(move |tags| {
                    ends.iter()
                        .zip(tags)
                        .map(|((a, b), tag)| Channel {
                            a: a.clone(),
                            b: b.clone(),
                            tag,
                            span: sp(),
                        })
                        .collect::<Vec<_>>()
                })
            });
            let word_pair = move || (0..n, pick(WORDS), pick(WORDS));
            let mpi = (
                v(
                    (word_pair(), prop::option::of(0..9i64)).prop_map(|((p, c, g), i)| {
                        let group = i.map_or(g.clone(), |i| format!("{g}[{i}]"));
                        (p, c, group)
                    }),
                ),
                v((0..n, pick(WORDS), pick(WORDS), 0..n)),
                v((0..n, pick(PORT_TYPES), pick(WORDS))),
                v((
                    word_pair(),
                    prop_oneof!["[ -~]{0,8}", (-5..50i64).prop_map(|n| n.to_string())],
                )
                    .prop_map(|((p, a, _), val)| (p, a, val))),
            )
                .prop_map(|(contexts, roots, port_contexts, topology_args)| {
                    MpiAnnotation {
                        contexts,
                        roots,
                        port_contexts,
                        topology_args,
                    }
                });
            let facts = (
                map(pick(VARS), any::<i64>()),
                v(prop_oneof![
                    prop::collection::vec(pick(PORT_TYPES), 1..4).prop_map(|t| (t, true)),
                    (pick(PORT_TYPES), pick(PORT_TYPES)).prop_map(|(a, b)| (vec![a, b], false)),
                ]),
                map(pick(COMPONENTS), "[ -~]{0,12}"),
                map(0..n, host()),
                map(0..n, 1..100_000u64),
            );
            (
                Just(processes),
                Just(is_mpi),
                Just(name),
                channels,
                mpi,
                facts,
            )
        })
        .prop_map(
            |(
                processes,
                is_mpi,
                name,
                channels,
                mpi,
                (params, compat, locations, allocation, weights),
            )| {
                let component_spans = processes
                    .iter()
                    .map(|p| (p.component.clone(), sp()))
                    .collect();
                let mpi = is_mpi.then_some(mpi);
                let m = mpi.clone().unwrap_or_default();
                Application {
                    name,
                    source: PathBuf::new(),
                    info: ScriptInfo {
                        params,
                        compat: compat
                            .into_iter()
                            .map(|(types, class)| CompatRule {
                                types,
                                class,
                                span: sp(),
                            })
                            .collect(),
                        endpoint_spans: vec![(sp(), sp()); channels.len()],
                        component_spans,
                        context_spans: vec![sp(); m.contexts.len()],
                        root_spans: vec![sp(); m.roots.len()],
                        port_context_spans: vec![sp(); m.port_contexts.len()],
                        arg_spans: vec![sp(); m.topology_args.len()],
                        environment_span: sp(),
                    },
                    processes,
                    channels,
                    environment: if is_mpi {
                        Environment::Mpi
                    } else {
                        Environment::Pvm3
                    },
                    locations: locations
                        .into_iter()
                        .map(|(c, path)| (c, Location { path, span: sp() }))
                        .collect(),
                    allocation: allocation
                        .into_iter()
                        .map(|(p, host)| (p, Placement { host, span: sp() }))
                        .collect(),
                    weights: weights
                        .into_iter()
                        .map(|(p, value)| (p, Weight { value, span: sp() }))
                        .collect(),
                    mpi,
                }
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn random_syntax_trees_round_trip(tree in script_tree()) {
        let file = Path::new("random.ens");
        let text = print::script(&tree);
        let again = ensemble_lang::parse_syntax(&text, file)
            .map_err(|d| TestCaseError::fail(format!("{}\n{text}", render(&d))))?;
        prop_assert_eq!(bare(again.clone()), tree.clone(), "printed as:\n{}", text);
        // Expansion sees no difference either: the same model or errors.
        let params = BTreeMap::new();
        let a = ensemble_lang::expand::expand(&tree, file, &params).map(|a| a.without_places());
        let b = ensemble_lang::expand::expand(&again, file, &params).map(|a| a.without_places());
        prop_assert_eq!(a.is_ok(), b.is_ok(), "printed as:\n{}", text);
        if let (Ok(a), Ok(b)) = (a, b) {
            prop_assert_eq!(a, b, "printed as:\n{}", text);
        }
    }

    #[test]
    fn random_models_round_trip(app in application()) {
        let file = Path::new("model.ens");
        let text = print::application(&app);
        let again = ensemble_lang::parse_str(&text, file, &BTreeMap::new())
            .map_err(|d| TestCaseError::fail(format!("{}\n{text}", render(&d))))?;
        prop_assert_eq!(again.without_places(), app, "printed as:\n{}", text);
    }
}
