//! Decision and compile cost of Jasper policies: a large one (10,000 prefix rules and 100 regex
//! rules, target ≤ 20 µs per decision) and a one-rule one.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use jasper::{Decision, Policy, PolicySettings, RulesFile};

fn argv(line: &str) -> Vec<String> {
    line.split_whitespace().map(str::to_string).collect()
}

/// 10,000 two-token prefix rules (every tenth a deny), 50 deny and 50 accept regexes in the
/// style of the Snowflake content checks.
fn large_rules() -> RulesFile {
    let mut deny = Vec::new();
    let mut accept = Vec::new();
    for service in 0..100 {
        for operation in 0..100 {
            let rule = format!("service{service} operation{operation}");
            if operation % 10 == 9 {
                deny.push(rule);
            } else {
                accept.push(rule);
            }
        }
    }
    for n in 0..50 {
        deny.push(format!("/\\bdestroy{n}\\b/i"));
        accept.push(format!("/^query{n} --sql select /"));
    }
    RulesFile::new(deny, accept)
}

fn settings() -> PolicySettings {
    PolicySettings {
        minimum_accept_tokens: 2,
        ..PolicySettings::default()
    }
}

fn large_policy(c: &mut Criterion) {
    let rules = large_rules();
    assert_eq!(rules.deny.len() + rules.accept.len(), 10_100);
    let policy = Policy::compile(&rules, &settings()).unwrap();

    let unresolved = argv("service42 unknown-op --region sa-east-1 --output json");
    assert_eq!(policy.evaluate(&unresolved).decision, Decision::Unresolved);
    c.bench_function("large/unresolved", |b| {
        b.iter(|| policy.evaluate(black_box(&unresolved)))
    });

    let allowed = argv("service42 operation7 --region sa-east-1 --max-items 10");
    assert!(policy.evaluate(&allowed).decision.is_allowed());
    c.bench_function("large/allowed", |b| {
        b.iter(|| policy.evaluate(black_box(&allowed)))
    });

    let query = vec![
        "query3".to_string(),
        "--sql".to_string(),
        "select id, name, updated_at from customers c join orders o on o.customer_id = c.id \
         where o.created_at > current_date - 30 order by o.created_at desc; DESTROY42 t"
            .to_string(),
    ];
    assert!(policy.evaluate(&query).decision.is_denied());
    c.bench_function("large/regex-denied-long-query", |b| {
        b.iter(|| policy.evaluate(black_box(&query)))
    });

    c.bench_function("large/compile", |b| {
        b.iter(|| Policy::compile(black_box(&rules), &settings()).unwrap())
    });
}

fn one_rule_policy(c: &mut Criterion) {
    let rules = RulesFile::new(Vec::<String>::new(), ["s3 ls"]);
    let policy = Policy::compile(&rules, &settings()).unwrap();
    let allowed = argv("s3 ls s3://bucket --recursive");
    assert!(policy.evaluate(&allowed).decision.is_allowed());
    c.bench_function("one-rule/allowed", |b| {
        b.iter(|| policy.evaluate(black_box(&allowed)))
    });
}

criterion_group!(benches, large_policy, one_rule_policy);
criterion_main!(benches);
