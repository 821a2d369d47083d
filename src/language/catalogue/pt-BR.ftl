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
op-grant-expired = O grant com que terminar expirou; escolha uma duração.
op-reviewed-with-target = Revisei a invocação, o target e o escopo
op-reviewed = Revisei a invocação e o escopo
op-allow = Permitir
op-allowed-once = 👍 Acesso autorizado uma vez.
op-allowed-for = 👍 Acesso autorizado por { $duration }.
op-on-target = { $tool } (target { $target })
op-summary-once = Permitir uma vez: esta chamada exata em { $on } roda agora; nada fica guardado.
op-for = por { $duration }
op-until-oldest = até o grant ativo mais antigo terminar, em { $duration }
op-summary-exact = Permitir { $how_long }: chamadas em { $on } com exatamente estes { $count } argumentos, nesta ordem, e nada além.
op-summary-prefix = Permitir { $how_long }: qualquer chamada em { $on } cujos primeiros { $count } argumentos sejam { $tokens }; os argumentos seguintes podem mudar, sumir ou ser acrescentados.
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
lease-alert = Adicionar mantém { $others } ativos também: o agente poderá escolher qualquer alias ativo nas operações que a política permite. Mantenha Adicionar ao conjunto pressionado por 1 segundo para confirmar.
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
auth-missing = Obrigatório: { $names }.
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
cli-upgrade-done = torii { $current } atualizado para { $latest } em { $path }; a raiz de configuração não foi tocada. Reinicie seus clientes MCP: um cliente em execução mantém o binário antigo até lá.
cli-upgrade-kept = O executável substituído fica como { $path } enquanto roda; o próximo torii self upgrade o remove.
doctor-ok = ok
doctor-warning = aviso
doctor-problem = problema
doctor-fix = correção: { $fix }
