# O lado humano do Torii em português do Brasil. Os termos seguem o livro: Negar, Permitir,
# Uma vez, Temporariamente, Somente esta invocação exata, Substituir todos os ativos,
# Adicionar ao conjunto, Validar e usar, Cancelar.

## Compartilhado pelas janelas

action-deny = Negar
access-denied = Acesso negado.
duration-label = Duração
duration-invalid = Informe minutos inteiros de 1 a 1440.
duration-unit = min
duration-minutes = { $minutes } min
duration-seconds = { $seconds } s
duration-minutes-seconds = { $minutes } min { $seconds } s
pill-empty = "" (vazio)
pill-shortened = { $start }…{ $end } · { $chars } caracteres
future-arguments = + quaisquer argumentos acrescentados depois

## A janela de aprovação da operação

op-title = Torii: aprovar uma chamada a { $tool }
op-heading = { $tool } quer executar uma chamada que nenhuma regra decide
op-tool = Tool
op-target = · Target
op-fixed = Fixos ({ $count })
op-fixed-hint = precisam casar exatamente, nesta ordem
op-variable = Variáveis ({ $count })
op-variable-hint = podem mudar, sumir ou ser acrescentados
op-exact-group = Invocação exata ({ $count ->
        [0] nenhum argumento
        [one] { $count } argumento
       *[other] { $count } argumentos
    })
op-exact-hint = mesmos tokens, mesma ordem, nada além
op-arguments = Argumentos ({ $count })
op-shortened-hover = Encurtado: clique para ler o argumento inteiro em páginas
op-review-header = Argumento { $index } de { $total } · { $chars } caracteres · página { $page } de { $pages }
op-previous-page = Página anterior
op-next-page = Próxima página
op-close-review = Fechar revisão
op-access = Acesso
op-once = Uma vez
op-temporarily = Temporariamente
op-scope = Escopo
op-exact = Somente esta invocação exata
op-prefix = Prefixo
op-suggested = Um prefixo de { $tokens } tokens é sugerido.
op-restore = Restaurar sugestão
op-boundary = Limite
op-fewer = Menos fixos
op-more = Mais fixos
op-fixed-of = { $fixed } de { $total } tokens fixos
op-no-suggestion = Nenhum limite é sugerido: nenhuma opção vem depois de pelo menos dois tokens.
op-suggestion-reason = Sugerido pela forma da chamada: os { $tokens } tokens antes de `{ $option }`, sua primeira opção. Não é um palpite sobre o que a operação faz; mova o limite se preciso.
op-end-with-oldest = Terminar junto com o grant ativo mais antigo neste escopo
op-grant-expired = O grant com o qual este terminaria já expirou; escolha uma duração.
op-reviewed-with-target = Revisei a invocação, o target e o escopo
op-reviewed = Revisei a invocação e o escopo
op-allow = Permitir
op-allowed-once = 👍 Acesso autorizado uma vez.
op-allowed-for = 👍 Acesso autorizado por { $duration }.
op-on-target = { $tool } (target { $target })
op-summary-once = Permitir uma vez: esta chamada exata em { $on } roda agora; nada fica guardado.
op-for = por { $duration }
op-until-oldest = até o grant ativo mais antigo terminar, em { $duration }
op-summary-exact = Permitir { $how_long }: chamadas em { $on } com exatamente { $count ->
        [0] estes { $count } argumentos
        [one] este argumento
       *[other] estes { $count } argumentos
    }, nesta ordem, e nada além.
op-summary-prefix = Permitir { $how_long }: qualquer chamada em { $on } { $count ->
        [0] cujos primeiros { $count } argumentos sejam
        [one] cujo primeiro argumento seja
       *[other] cujos primeiros { $count } argumentos sejam
    } { $tokens }; os argumentos seguintes podem mudar, sumir ou ser acrescentados.
op-status-tick = Permitir fica desabilitado até você marcar a caixa de revisão.
op-status-reviewed = Revisado: Permitir concede exatamente o que o resumo diz.

## A janela de lease do target

lease-title = Torii: ativar o target { $alias } de { $tool }
lease-heading = { $tool } quer usar o target { $alias }
lease-explainer = Um lease deixa as chamadas usarem este binding por um tempo; a política continua decidindo cada operação.
lease-requested = Solicitado
lease-minutes-range = min (de 1 a 1440)
lease-active-now = Ativos agora ({ $count })
lease-none-active = nenhum target de { $tool } está ativo
lease-replace = Substituir todos os ativos
lease-add = Adicionar ao conjunto
lease-alert = { $count ->
        [one] Adicionar mantém { $others } ativo também: o agente poderá escolher qualquer alias ativo nas operações que a política permite. Mantenha Adicionar ao conjunto pressionado por 1 segundo para confirmar.
       *[other] Adicionar mantém { $others } ativos também: o agente poderá escolher qualquer alias ativo nas operações que a política permite. Mantenha Adicionar ao conjunto pressionado por 1 segundo para confirmar.
    }
lease-replaced = 👍 { $alias } agora é o único target ativo, por { $minutes } min.
lease-added = 👍 { $alias } adicionado aos targets ativos, por { $minutes } min.
lease-status-others = Substituir deixa { $alias } como único target ativo; Adicionar mantém os demais.
lease-status-alone = Ative { $alias } por esta duração, ou negue.

## A janela de autenticação

auth-title = Torii: entrar em { $tool }
auth-heading = { $tool } precisa de uma sessão
auth-explainer = Credenciais para { $scope }. Elas são verificadas antes do uso e guardadas somente para este escopo.
auth-required = obrigatório
auth-optional = opcional
auth-validate = Validar e usar
auth-cancel = Cancelar
auth-paste = Colar da área de transferência
auth-paste-hover = Lê linhas export KEY=value, SET KEY=value, $Env:KEY=value ou KEY=value e preenche os campos que elas nomeiam
auth-status-fill = Preencha os campos e clique em Validar e usar.
auth-status-no-validator = Este provider não tem validador: os valores são usados como digitados.
auth-clipboard-unreadable = Não foi possível ler a área de transferência: { $error }
auth-clipboard-empty = A área de transferência não tem uma linha KEY=value para um campo deste formulário.
auth-filled = { $count ->
        [one] { $count } campo preenchido
       *[other] { $count } campos preenchidos
    } da área de transferência: { $names }.
auth-missing = { $count ->
        [one] Obrigatório: { $names }.
       *[other] Obrigatórios: { $names }.
    }
auth-validating = Validando a sessão…
auth-refused = Sessão recusada ({ $reason }): confira os valores.
auth-cancelled = Autenticação cancelada.
auth-validated = 👍 Sessão validada.
auth-accepted = 👍 Valores aceitos.

## A CLI de controle (stderr, e o relatório do doctor)

cli-init-created = criado { $path }
cli-init-exists = { $path } já existe; mantido sem alteração
cli-target-restart = reinicie o servidor MCP para mudar a lista `target` da tool (ativar não exige reinício)
cli-target-created = target `{ $alias }` de `{ $tool }` criado; ele começa inativo: conceda um lease com `torii target activate { $tool } { $alias }`; { $restart }
cli-target-removed = target `{ $alias }` de `{ $tool }` removido e seu lease revogado; { $restart }
cli-target-none = nenhum target configurado para `{ $tool }`; crie um com `torii target add { $tool } <ALIAS> …`
cli-lease-several = aviso: { $count } aliases de `{ $tool }` estão ativos ({ $aliases }); o agente poderá escolher qualquer um deles nas operações permitidas
cli-lease-in-effect = em vigor agora; o servidor MCP não precisa ser reiniciado
cli-lease-none = nenhum lease ativo para `{ $tool }`
cli-lease-many = { $count } aliases estão ativos: o agente poderá escolher qualquer um deles nas operações permitidas
cli-lease-cleared = todos os leases de `{ $tool }` foram removidos ({ $path }); targets, regras, grants, .env, sessões e processos em execução não foram tocados
cli-provider-installed = { $name } { $version } (tool { $tool }) instalado de { $origin } em { $dir }
cli-provider-empty-policy = a política está vazia: nada que o agente envie é permitido por regras até você escrever uma
cli-provider-setup-hint = para aplicar o setup curado: torii provider setup { $name } { $setup }
cli-provider-restart = reinicie o servidor MCP para publicar a nova tool
cli-provider-applied = setup { $setup } aplicado em { $path }: { $deny } regras deny, { $accept } accept, { $examples } exemplos
cli-provider-review = revise com `torii policy show`; não é preciso reiniciar
cli-provider-upgraded = { $name } atualizado de { $from } para { $to } ({ $origin }); regras, .env, grants, targets e sessões não foram tocados
cli-provider-signed = assinado pela chave { $key }, em que este torii confia
cli-provider-unsigned = sem assinatura; settings.yaml permite pacotes sem assinatura (unsigned_packages: allow)
cli-search-unsigned = { $location } não está assinado
cli-policy-ignored = aviso: o accept { $rule } tem menos tokens que minimum_accept_tokens ({ $minimum }) e é ignorado
cli-policy-written = { $path } { $created ->
        [yes] criado
       *[no] atualizado
    }; a próxima chamada já o lê, sem reiniciar
cli-policy-unchanged = nenhuma alteração; { $path } { $created ->
        [yes] não foi criado
       *[no] ficou como estava
    }
cli-agent-restart = Reinicie { $client } para carregar a alteração.
cli-upgrade-available = torii { $current } está instalado; { $latest } está disponível (torii self upgrade)
cli-upgrade-current = torii { $current } está atualizado (última versão { $latest })
cli-upgrade-already = já está atualizado: torii { $current } (última versão { $latest })
cli-upgrade-done = torii { $current } atualizado para { $latest } em { $path }, que diz: { $says }; a raiz de configuração não foi tocada. Reinicie seus clientes MCP: um cliente em execução mantém o binário antigo até lá.
cli-upgrade-kept = O executável substituído fica como { $path } enquanto roda; o próximo torii self upgrade o remove.
doctor-ok = ok
doctor-warning = aviso
doctor-problem = problema
doctor-fix = correção: { $fix }
doctor-no-root = a raiz de configuração { $path } não existe
doctor-no-root-fix = torii init (ou defina TORII_CONFIG_DIR como a raiz que seus clientes usam)
doctor-root = raiz de configuração { $path }
doctor-fix-file = corrija { $path }
doctor-and-more = e mais { $count }
doctor-no-torii-on-path = nenhum torii no PATH (este é { $exe }, { $version }); os clientes apontam para um caminho completo, mas um shell não encontrará o comando
doctor-no-torii-on-path-fix = adicione { $dir } ao PATH (veja a página de instalação)
doctor-torii-on-path = o torii no PATH é { $path } ({ $version })
doctor-release-build = este torii foi compilado como a release { $tag }, cujo arquivo é publicado com checksum assinado
doctor-local-build = este torii é uma compilação local, não um arquivo de release conferido com checksum assinado
doctor-no-release-key = este torii não confia em nenhuma chave de release: `torii self upgrade` recusa toda release
doctor-no-release-key-fix = uma compilação das releases do projeto confia na chave dele quando ela existir (veja a página de instalação, "Release keys")
doctor-version-unknown = versão desconhecida
doctor-not-run = não executado: { $why }
doctor-other-torii = o torii no PATH é { $path } ({ $theirs }), não este ({ $exe }, { $version })
doctor-other-torii-fix = remova a outra cópia, ou coloque primeiro no PATH o diretório em que você instala
doctor-why-unresolved = não pode ser resolvido
doctor-why-no-cwd = o diretório atual é desconhecido
doctor-why-under-cwd = está sob o diretório atual
doctor-why-unreadable = não pode ser lido
doctor-why-writable = ele ou seu diretório pode ser alterado por outros usuários
doctor-confined = os processos filhos dos providers estão confinados ({ $mechanism })
doctor-confined-namespace = os filhos dos providers rodam num namespace de montagem próprio, onde a raiz de configuração fica oculta e somente leitura e os diretórios acima dela aceitam entradas novas (o primeiro ~/.kube de um CLI)
doctor-confined-cannot-create = um filho confinado de provider não cria arquivos nem diretórios novos diretamente em { $dirs } (o que já existe continua utilizável): um CLI cuja primeira execução cria o diretório dele ali (~/.kube, ~/.azure, ~/.config/gcloud) precisa que ele seja criado uma vez fora do Torii, por exemplo rodando esse CLI num terminal
doctor-unconfined = os processos filhos dos providers não podem ser confinados aqui ({ $reason }): eles poderiam ler e alterar a raiz de configuração
doctor-unconfined-fix = use um kernel com Landlock (Linux 5.13 ou posterior, ativado na lista de LSM)
doctor-required-unenforced = `child_confinement: required` não pode ser garantido aqui ({ $reason }): nenhum comando de provider vai iniciar
doctor-required-unenforced-fix = use um kernel com Landlock, ou defina `child_confinement: best-effort` no settings.yaml
doctor-headless = { $variable } está definido: nenhuma janela abre, e as chamadas que nenhuma regra decide são negadas
doctor-no-gui-build = esta build não tem janelas de aprovação: as chamadas que nenhuma regra decide são negadas
doctor-no-gui-build-fix = instale uma build de release (compilada com a feature `gui`)
doctor-windows-can-open = as janelas de aprovação podem abrir ({ $display })
doctor-no-display = nenhum display (nem DISPLAY nem WAYLAND_DISPLAY está definido aqui): as janelas de aprovação não podem abrir, e as chamadas que nenhuma regra decide serão recusadas
doctor-no-display-fix = rode o cliente MCP numa sessão de desktop, responda num terminal com `torii console`, ou reinstale a entrada dele com `torii agent install <agente> --headless` ({ $variable }=1) para decidir só pelas regras
doctor-console-attached = um torii console está ligado a esta raiz: as perguntas que nenhuma regra decide vão para ele enquanto nenhuma janela pode abrir
doctor-desktop-session = a sessão de desktop
doctor-permissions-unchecked = as permissões não são verificadas neste sistema (a raiz de configuração fica no perfil do usuário)
doctor-foreign-owner = pertence a outro usuário, que pode alterá-lo: { $paths }
doctor-writable = pode ser alterado por outros usuários, que poderiam mudar a política: { $paths }
doctor-secret-readable = pode ser lido por outros usuários, e pode guardar credenciais ou estado: { $paths }
doctor-readable = pode ser lido por outros usuários (o Torii deixa tudo acessível só ao dono): { $paths }
doctor-unreadable = não pode ser lido: { $paths }
doctor-unreadable-fix = confira o dono e as permissões destes caminhos
doctor-permissions-stopped = a verificação de permissões parou depois de { $entries } entradas ou { $depth } níveis
doctor-permissions-stopped-fix = remova da raiz de configuração o que não é do Torii
doctor-owner-only = a raiz de configuração é acessível só ao dono ({ $entries } entradas)
doctor-registry-fix = corrija ou remova o arquivo indicado acima; o servidor não inicia até lá
doctor-no-providers-fix = torii provider install <pacote> (veja a página dos providers oficiais)
doctor-runs = { $tool }: executa { $path }
doctor-package-signed = { $tool }: pacote { $version } assinado pela chave { $key }
doctor-package-key-untrusted = { $tool }: o pacote { $version } foi assinado pela chave { $key }, em que este torii não confia mais
doctor-package-key-untrusted-fix = se você ainda confia em quem o publica, devolva a chave a package_keys em settings.yaml; senão, reinstale o provider de uma fonte em que confie
doctor-package-unsigned = { $tool }: o pacote { $version } de { $origin } não está assinado: só a sua própria revisão responde por ele
doctor-package-unsigned-fix = revise { $content }, ou instale-o de novo de um arquivo ou catálogo assinado; unsigned_packages: refuse em settings.yaml aceita só os assinados
doctor-package-lock = { $tool }: { $error }
doctor-package-lock-fix = corrija o arquivo indicado acima, ou remova-o para manter o provider à mão (só provider list, doctor e upgrade o leem)
doctor-command-missing-fix = instale `{ $name }`, ou coloque o diretório dele no PATH com que o cliente MCP inicia o torii
doctor-policy-missing = { $whose }: { $path } não existe: toda chamada é negada
doctor-policy-invalid = { $whose }: { $error }: toda chamada é negada
doctor-examples-fail = { $whose }: { $failed } de { $total } exemplos em { $path } falham
doctor-policy-valid = { $count ->
        [0] { $whose }: { $path } é válido (não tem exemplos)
        [1] { $whose }: { $path } é válido e seu exemplo passa
       *[other] { $whose }: { $path } é válido e seus { $count } exemplos passam
    }
doctor-agent-fix-file = corrija o arquivo indicado e rode torii agent status { $agent }
doctor-no-agents = nenhuma integração de agente foi instalada a partir desta raiz de configuração
doctor-no-agents-fix = torii agent install <agente> (torii agent list mostra os nomes)
doctor-agent-exe-gone = { $name }: { $file } inicia { $exe }, que não existe
doctor-agent-other-exe = { $name }: { $file } inicia { $exe }, não este torii ({ $this })
doctor-agent-reinstall-fix = { $command } com o torii que o cliente deve executar
doctor-agent-other-root = { $name }: { $file } aponta para outra raiz de configuração
doctor-agent-preexisting = { $name }: { $file } tem uma entrada torii para este torii (não gerenciada pelo torii)
doctor-agent-no-entry = { $name }: { $file } não tem entrada torii
doctor-agent-no-hook = { $name }: sem hook de shell (o shell do agente pode executar os executáveis dos providers)
agent-hook-coverage = o hook vigia { $tools }; não vê dentro de scripts, de código de interpretadores nem das tools de outros servidores MCP
agent-hook-coverage-shell-only = o hook vigia só { $tools } (o shell): as ferramentas de arquivo do { $client }, scripts, código de interpretadores e tools de outros servidores MCP não são vistos
doctor-agent-hook = { $name }: hook de shell em { $file }
doctor-agent-hook-stale = { $name }: o hook de shell em { $file } executa outro torii ou outra raiz de configuração
doctor-agent-hook-removed = { $name }: o hook de shell foi removido de { $file }
doctor-agent-hook-exe-gone = { $name }: o hook de shell em { $file } executa { $exe }, que não existe: o cliente não roda hook nenhum, e nada impede os programas dos providers no shell dele
agent-hook-blocks = no shell do agente o hook bloqueia { $programs }: o agente os executa pelas tools do Torii
agent-hook-blocks-nothing = nenhum provider instalado tem um programa para o hook bloquear ainda
agent-hook-agent-work = agentes costumam executar { $programs } no próprio trabalho (commits, builds, pacotes): com o hook, o { $client } só os executa pelas tools do Torii. Para deixá-los ao shell dele, remova os providers deles ou use a entrada MCP sem --hook
agent-hook-agent-work-fix = torii provider list
doctor-agent-trusted = { $name }: o Codex confia no hook
doctor-agent-untrusted = { $name }: o Codex não confia no hook onde ele está agora, e o ignora
doctor-agent-cargo = { $name }: { $file } inicia uma build do cargo ({ $exe }), que `cargo build` substitui e `cargo clean` apaga
doctor-agent-cargo-fix = instale uma release e rode torii agent install { $name } com ela
doctor-agent-starts = { $name }: { $file } inicia { $exe }
cli-doctor-problems = o doctor encontrou { $count ->
        [one] { $count } problema
       *[other] { $count } problemas
    }
cli-unknown-provider = não há provider instalado chamado { $key } (instalados: { $installed })
cli-not-target-aware = { $tool } não é target-aware, então não tem o target { $alias }
cli-unknown-target = { $tool } não tem o target { $alias } (configurados: { $configured })
cli-target-activate-needs-terminal = `torii target activate` dá ao agente acesso a um target, por isso só uma pessoa num terminal pode executá-lo: a entrada padrão não é um terminal (a ferramenta de shell de um agente, um pipe ou um script). Execute-o você mesmo num terminal.
cli-target-unknown-tool = <TOOL>: nenhum provider instalado publica a tool `{ $tool }` (veja `torii provider list`)
cli-target-not-target-aware = <TOOL>: `{ $tool }` não é target-aware: { $config } não tem o campo `targeting`
cli-target-unknown-alias = <ALIAS>: `{ $tool }` não tem o target `{ $alias }` (veja `torii target list { $tool }`)
cli-target-exists = `{ $tool }` já tem um target `{ $alias }` ({ $config }); remova-o antes com `torii target remove { $tool } { $alias } --force`
cli-policy-editor = não foi possível executar o editor { $program }
cli-policy-examples-fail = { $failed } de { $total } exemplos falham em { $path }
cli-unknown-agent = agente desconhecido `{ $name }`: use um de { $known }
cli-pi-needs-yes = pi: não há terminal para confirmar; rode de novo com --yes (nada foi gravado)
cli-nothing-written = nada foi gravado
cli-cannot-create = não foi possível criar { $path }
cli-no-exe = não foi possível encontrar este executável
cli-cannot-remove = não foi possível remover { $path }
agent-added = adicionado { $place }
agent-already-installed = já instalado: { $place }
agent-updated = atualizado { $place }
agent-preexisting = já existia, não gerenciado pelo torii (a desinstalação o mantém): { $place }
agent-nothing-to-remove = nada a remover: o torii não gerencia nenhuma integração de { $client } (não há { $state })
agent-nothing-of-kind = nada a remover: o torii não gerencia { $hook ->
        [yes] nenhum hook
       *[no] nenhum conteúdo
    } para { $client }
agent-kept = mantido, ainda usado por outro conteúdo: { $place }
agent-removed = removido { $place }
agent-already-gone = já não existia: { $place }
standing-managed = gerenciado pelo torii
standing-managed-stale = gerenciado pelo torii, aponta para outro executável ou outra raiz de configuração (instale de novo para atualizar)
standing-changed = gravado pelo torii e alterado depois (a desinstalação vai parar nele)
standing-missing = gravado pelo torii e removido depois
standing-preexisting-same = entrada que já existia, não gerenciada pelo torii
standing-preexisting = entrada que já existia e difere da do torii, não gerenciada
standing-absent = não instalado
standing-trusted = o Codex confia no hook
standing-untrusted = o Codex não confia no hook onde ele está agora e o ignora (instale --hook de novo)
cli-agent-pi-warning = aviso: o pi não fala MCP sozinho. { $file } só é lido por uma extensão MCP que você instalou no pi ({ $extensions }); sem ela o arquivo é ignorado e nada funciona. Se você não sabe qual é essa extensão, pare aqui.
cli-agent-pi-confirm = Gravar a entrada do torii para a extensão MCP do pi?
cli-agent-cargo-warning = aviso: este torii roda de uma build do cargo ({ $exe }); o cliente vai iniciar esse binário, que `cargo build` substitui e `cargo clean` apaga. Prefira uma release instalada.
cli-agent-hook-note = O hook bloqueia chamadas diretas de shell aos executáveis dos providers instalados: reduz desvios acidentais e não é um sandbox.
cli-agent-hook-no-registry = aviso: os providers instalados não podem ser carregados ({ $reason }): até isso ser corrigido o hook nega todo comando de shell
cli-agent-codex-trust = O Codex só executa hooks em que confia: a confiança no hook fica registrada no config.toml do Codex ([hooks.state]). Ela indica a posição do hook no hooks.json; depois de editar esse arquivo, rode este comando de novo.
cli-agent-no-hook = { $client } não tem hook de shell: o agente ainda pode executar os executáveis dos providers no próprio shell. Use o sandbox do cliente e credenciais de privilégio mínimo.
confirm-choices = [s/N]
upgrade-bad-tag = a última release é { $tag }, que não é uma tag no formato vX.Y.Z
upgrade-no-platform = não há arquivo de release para esta plataforma; compile a partir do código-fonte
upgrade-bad-checksum-file = { $asset }.sha256 não descreve { $asset }
upgrade-mismatch = o SHA-256 de { $asset } não confere com { $asset }.sha256; o binário não foi alterado
upgrade-unsigned = a release de { $asset } não traz assinatura ({ $asset }.sha256.minisig: { $reason }); o binário não foi alterado
upgrade-bad-signature = { $asset }.sha256 não está assinado por uma chave de release em que este torii confia; o binário não foi alterado
upgrade-new-does-not-run = o novo executável em { $path } não roda ({ $reason }); reinstale o torii com o install.sh
upgrade-no-executable = { $asset } não contém { $entry }
upgrade-archive = não foi possível ler { $asset }: { $reason }
upgrade-replace = não foi possível substituir { $path }
cli-target-flag-required = { $flag }: obrigatório para targets `{ $mode }` (tool `{ $tool }`)
cli-target-unfaithful = { $path }: os valores informados não podem ser gravados fielmente em YAML; nada foi gravado
cli-target-force = --force: remover `{ $alias }` apaga { $dir } com seu target.yaml, rules.yaml, .env e grants; repita com --force para fazê-lo
package-unknown-source = { $arg } não é um caminho existente, uma URL https:// nem um nome válido do catálogo (veja `torii provider search`)
package-unknown-builtin = este torii não tem o pacote embutido `{ $name }` (tem { $known }); instale-o de um caminho, de uma URL ou do catálogo
package-not-in-catalog = { $name } não está no catálogo { $catalog }
package-exists = { $path } já existe; install nunca substitui um provider instalado (para mudar a versão use `torii provider upgrade { $name }`)
package-unknown-setup = o pacote { $package } não tem o setup { $setup } (disponíveis: { $available })
package-policy-not-empty = { $path } não está vazio ({ $deny } deny, { $accept } accept, { $examples } exemplos); setup só grava sobre uma política vazia. Revise com `torii policy show { $tool }` e esvazie-a antes se quiser o setup
cli-search-none = nenhum provider em { $location }
cli-search-none-matching = nenhum provider correspondente a { $query } em { $location }
cli-provider-narrow = aviso: o accept { $rule } é mais curto que minimum_accept_tokens e é ignorado
cli-provider-environment-changed = o exemplo de ambiente do pacote mudou; compare-o com o seu .env: { $path }
cli-provider-restart-load = reinicie o servidor MCP para carregar o novo provider.yaml
cli-policy-rejected = o rascunho foi recusado: { $reason }
cli-policy-reopen = Reabrir o editor para corrigir?
cli-policy-resuming = retomando o rascunho guardado de uma edição anterior: { $path } (apague-o para recomeçar da política ativa)
cli-reauth-done = sessão de `{ $tool }` renovada e validada
cli-cannot-read = não foi possível ler { $path }
agent-hook-unsupported = { $client } não tem um evento antes de o shell rodar, então --hook não é suportado para `{ $name }` (nada foi gravado)
agent-trust-unsupported = --trust é para o Gemini CLI, cuja entrada diz se ele pergunta antes de cada chamada de tool; o { $client } não tem essa opção na entrada
agent-other-root = { $file } tem a entrada `torii` de outra raiz de configuração, { $other } (nada foi escrito). Para movê-la, com o hook, para esta raiz, responda sim num terminal ou rode `torii agent install { $agent } --yes`
agent-switch-confirm = Mover a entrada torii deste cliente (e o hook) de { $other } para esta raiz de configuração?
agent-switched-root = movida da raiz de configuração { $other }, que não gerencia mais este cliente
agent-opencode-jsonc = { $path } já existe: o Torii grava só o opencode.json, e o opencode junta os dois arquivos (nada foi gravado); adicione a entrada ao opencode.jsonc à mão, ou mova a configuração para o opencode.json
agent-conflict = { $file } já tem um servidor MCP `torii` diferente em { $place } (nada foi gravado); remova-o ou renomeie-o antes
agent-setting = { $file }: { $place } é { $found }, e o hook precisa de { $needed } (nada foi gravado); altere à mão se quiser o hook
agent-changed-since = { $file }: { $place } foi alterado depois que `torii agent install` o gravou, então agora é seu (nada foi gravado); edite ou remova à mão
agent-foreign-record = { $state }: registra { $place } em { $file }, que não é um lugar onde o torii grava para { $client } agora (nada foi gravado); defina as mesmas variáveis de localização da instalação, ou remova o registro
agent-hard-links = { $path }: tem { $links } hard links, e o Torii substitui um arquivo renomeando um novo por cima, o que deixaria os outros nomes com o conteúdo antigo; edite-o à mão
agent-owner = não foi possível devolver { $path } ao seu dono
agent-state-invalid = { $path }: não é um arquivo de estado de agente do Torii
agent-no-home = não foi possível encontrar o diretório home: HOME não está definido
agent-no-appdata = não foi possível encontrar o perfil de usuário do VS Code: APPDATA não está definido (ou defina TORII_COPILOT_HOME)
agent-bad-json = JSON inválido: { $reason }
agent-bad-toml = TOML inválido: { $reason }
agent-top-not-object = o nível mais alto não é um objeto
agent-duplicate-key = a chave `{ $key }` aparece duas vezes; o cliente lê só uma delas, então o Torii não vai adivinhar
cli-agent-not-utf8 = { $path } não é UTF-8 válido, e a configuração de um cliente só pode nomeá-lo como texto (nada foi gravado)
cli-policy-no-own = o target { $alias } de { $tool } não tem política própria; ele usa { $shared }. Passe --create para criar { $own }, que então substitui a política compartilhada para este alias
cli-policy-editor-failed = o editor { $program } terminou com { $status }; { $live } não foi alterado e o rascunho está guardado em { $draft }
cli-policy-draft-kept = { $live } não foi alterado; o rascunho recusado está guardado em { $draft }
cli-policy-changed-meanwhile = { $live } mudou enquanto você editava, então não foi substituído; seu rascunho está guardado em { $draft }
cli-target-context-not-found = --context: `{ $command }` não encontrou o contexto (código de saída { $code }): { $reason }; nada foi gravado
cli-cannot-write = não foi possível gravar { $path }
package-not-https = { $location } recusado: pacotes e catálogos só são baixados por https://
package-bad-url = { $location }: URL inválida: { $reason }
package-download = não foi possível baixar { $url }: { $reason }
package-too-large = { $location }: maior que { $limit } bytes
package-digest-mismatch = sha256 não confere para { $location }: o catálogo indica { $expected }, o download tem { $actual }; nada foi extraído
package-unknown-key = { $location } está assinado pela chave { $key }, em que este torii não confia; se você confia em quem o publica, acrescente a chave pública dele a package_keys em { $settings }. Nada foi alterado
package-bad-signature = { $signature } não confere com { $location } (chave { $key }): o arquivo ou a assinatura foi alterado depois de assinado. Nada foi alterado
package-malformed-signature = { $signature } não é uma assinatura minisign (truncada ou danificada). Nada foi alterado
package-unsigned-refused = { $location } não traz assinatura, e { $settings } recusa pacotes sem assinatura (unsigned_packages: refuse). Nada foi alterado
package-upgrade-unsigned = { $name } foi instalado assinado pela chave { $key }, mas { $location } não traz assinatura; a atualização foi recusada. Nada foi alterado
package-legacy-signature = { $signature } é uma assinatura minisign na forma antiga (minisign -S -l), que não é aceita: assine o arquivo de novo sem -l. Nada foi alterado
package-upgrade-key-changed = { $name } foi instalado assinado pela chave { $recorded }, mas { $location } está assinado pela chave { $key }; a atualização foi recusada. Se quem publica trocou de chave, rode de novo com --accept-key { $key }. Nada foi alterado
package-not-packaged = o provider { $name } não foi instalado de um pacote ({ $path } não existe), então não tem { $what ->
        [setups] setups
       *[origin] origem registrada de onde atualizar
    }
package-upgrade-changes = { $location }: a atualização mudaria `{ $field }` de { $old } para { $new }; recusada (instale-o como um provider separado)
auth-validator-exit = o validador terminou com o código { $code }
auth-validator-timeout = o validador não terminou em { $seconds } segundos
auth-validator-not-started = não foi possível iniciar o validador: { $why }
auth-validator-cancelled = a validação foi cancelada
auth-validator-stopped = a validação parou inesperadamente
demo-title = Demonstração do Torii
demo-root = raiz de configuração descartável { $path } com um provider, `git`, e uma política somente leitura
demo-audit = Log de auditoria (torii.log): decisões e códigos de saída, nunca saídas ou segredos
demo-own-client = Use com o seu próprio cliente MCP
demo-next-install = um pacote oficial, embutido no torii (também aws, az, snow, …)
demo-next-setup = a política somente leitura curada dele
demo-next-agent = o Torii no seu agente (ou codex, gemini, cursor, … : torii agent list)
demo-headless-note = ninguém podia ser perguntado, então a interface de aprovação negou no lugar do humano: o agente lê a origem human-deny, a auditoria diz denied-interface
demo-step-list = O agente lista as tools: uma por provider, mais a torii_policy somente leitura
demo-step-policy = Ele lê a política antes de escolher uma operação
demo-step-accepted = Uma chamada aceita executa o git, sem shell
demo-step-denied = Uma chamada negada explicitamente (também listada em accept: o deny vence)
demo-step-unresolved = Uma chamada que nenhuma regra decide, em modo headless (TORII_NO_GUI=1)
demo-rule = (regra `{ $rule }`)
demo-decision = decisão { $verdict } por { $source }{ $rule }
demo-no-process = nenhum processo iniciado: o resultado não tem `execution`
demo-message = mensagem para o agente: { $message }
cli-policy-locked-hint = o alias do target fixa o contexto, a identidade e o endpoint: o servidor recusa esta flag antes de ler a política
cli-policy-unresolved-hint = nenhuma regra decide esta chamada: na hora da chamada, um grant ativo ou um humano decide; senão ela é negada
cli-policy-ignored-match = nota: o accept { $rule } casaria mas é ignorado (menos tokens que minimum_accept_tokens)
cli-lease-activated = { $alias } ativo até { $until } ({ $minutes } min)

console-title = Console do Torii
console-waiting = Aguardando perguntas dos servidores Torii de { $root }. Elas vêm para cá enquanto nenhuma janela de aprovação pode abrir.
console-leave = q ou Ctrl-C: sair (uma pergunta na tela é negada antes)
console-asked-by = perguntado por { $asker }
console-tool = tool:{" "}
console-target = target:{" "}
console-args = a chamada, token por token:
console-once-key = uma vez (o)
console-temporary-key = temporariamente (t)
console-exact-key = esta chamada exata (e)
console-prefix-key = chamadas que começam com os primeiros { $tokens } tokens (p; ← → para mudar, s para voltar à sugestão)
console-minutes = por { $minutes } minutos (digite o número; Backspace apaga)
console-end-with-oldest = até o grant mais antigo deste escopo acabar (w)
console-review-key = (espaço)
console-op-keys = Enter: permitir como mostrado   d ou Esc: negar
console-gone = A última pergunta foi retirada: a chamada foi cancelada ou o servidor dela terminou.
console-no-root = a raiz de configuração { $root } não existe (rode `torii init`)
console-already-attached = já há um console ligado a { $root }; use aquele
console-cannot-listen = não é possível escutar em { $path }
console-cannot-write-token = não é possível gravar o token do console { $path }
console-no-terminal = o console precisa de um terminal (rode-o numa janela de terminal, num painel do tmux ou numa sessão SSH)
console-binding = vínculo: { $binding }
console-no-active = nenhum outro alias desta tool está ativo
console-active = ativos agora: { $aliases }
console-lease-minutes = por { $minutes } minutos (digite o número; Backspace apaga)
console-type-alias = Adicionar deixa vários aliases ativos: digite `{ $alias }` e Enter para confirmar (Esc volta)
console-lease-keys = r: substituir os aliases ativos   a: adicionar a eles   d ou Esc: negar
console-secret-set = (digitado, oculto)
console-lines = { $count } linhas (cole para preencher)
console-auth-keys = digite no campo marcado ▶ (Tab ou ↑ ↓ para mudar; colar funciona)   Enter: validar e usar   Esc: cancelar
console-lease-alert = { $count ->
        [one] Adicionar mantém { $others } ativo também: o agente poderá escolher qualquer alias ativo nas operações que a política permite. Adicionar pede que você digite `{ $alias }` para confirmar.
       *[other] Adicionar mantém { $others } ativos também: o agente poderá escolher qualquer alias ativo nas operações que a política permite. Adicionar pede que você digite `{ $alias }` para confirmar.
    }

## torii audit verify
audit-unreadable = não foi possível ler o log de auditoria { $path }
audit-mid-chain = problema: a primeira linha de { $file } não inicia uma cadeia: foi editada, linhas antes dela foram removidas, ou o log foi rotacionado (passe os arquivos rotacionados, do mais antigo ao mais novo, ou --continued quando os mais antigos não existem mais)
audit-too-long = problema: { $file } linha { $line } é mais longa que qualquer linha que o Torii escreve
audit-changed = o log de auditoria foi alterado: { $count ->
        [one] { $count } ponto
       *[other] { $count } pontos
    }
audit-lines = { $count ->
        [one] { $count } linha verificada
       *[other] { $count } linhas verificadas
    }
audit-broken = problema: { $file } linha { $line } não segue a linha anterior: foi editada, ou uma linha antes dela foi removida, inserida ou movida
audit-unchained = problema: { $file } linha { $line } não tem valor de cadeia: não foi escrita pelo Torii, ou seu valor foi removido
audit-head-mismatch = problema: o log termina antes da cabeça da cadeia ({ $head }): linhas foram removidas do fim, ou a cabeça foi substituída
audit-head-missing = problema: a cabeça da cadeia ({ $head }) não existe
audit-whole = a cadeia está íntegra

## doctor: audit export
doctor-audit-export = os eventos de auditoria também são enviados para { $destination }
doctor-audit-export-fix = defina audit_otlp_endpoint ou as variáveis OTEL_EXPORTER_OTLP_* como descreve a página Teams
doctor-audit-dropped = a exportação de auditoria para { $kind } descartou { $count ->
        [one] { $count } registro
       *[other] { $count } registros
    }, o último em { $when }: { $error }
doctor-audit-dropped-fix = torne o destino alcançável; todo evento continua em torii.log. Apague { $path } para zerar a contagem

## doctor: the administrator's layer
doctor-admin = camada do administrador { $path }: regras de negação para { $providers }; configurações travadas: { $settings }
doctor-admin-broken-fix = um administrador precisa corrigir o arquivo indicado acima; até lá o servidor responde toda chamada com este erro
doctor-admin-writable = { $path } pode ser alterado por alguém além do root, que poderia afrouxar o que a camada do administrador nega
doctor-admin-writable-fix = um administrador: chown -R root { $path } && chmod -R go-w { $path }
