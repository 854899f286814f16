"""The words of the pages, in English, traditional Chinese and Portuguese (Macau's official
languages are Chinese and Portuguese).

Bet and tile names come from the regulations as the engines and the ``tiles`` package
write them: baccarat 閒 / 莊 / 和 (BA-6, BA-13), craps as Portaria 97/85/M writes each
article (過關, 不過關, 來的機率, 不來的機率, 倍, 難, 大七點, 十一點, 任意骰, 大六點 …),
tiles from Table I (T-1: 天, 地, 人, 鵝 …) and the hand names of Tables II (天九王, 至尊 …).

In Portuguese, the words of the Portuguese text of the Taiwan Pai Kao rules (seed 001:
banqueiro, jogador, lugar, pedras, par da frente / de trás, banca, pagador, agitar os dados,
comissão, empate); baccarat as Macau's tables say it (Banca, Jogador, Empate); the tiles by
their romanised names, as that text writes «Teen Kong», «Tei Kong».
"""

from __future__ import annotations

from typing import Final

from macau_tables.tiles.tile import TABLE_I

LANGS: Final = ("en", "zh", "pt")
DEFAULT_LANG: Final = "en"
# each language by its own name (the switch on every page) and as <html lang> says it
LANG_NAMES: Final[dict[str, str]] = {"en": "English", "zh": "繁體中文", "pt": "Português"}
HTML_LANG: Final[dict[str, str]] = {"en": "en", "zh": "zh-Hant", "pt": "pt-PT"}

# A text in each language, in the order of LANGS: (en, zh, pt).
Text = tuple[str, str, str]


def pick(text: Text, lang: str) -> str:
    """``text`` in ``lang`` (English for a language not in LANGS)."""
    return text[LANGS.index(lang)] if lang in LANGS else text[0]


# Craps (CR-2 … CR-11): the Chinese of each article of Portaria 97/85/M (seed 002).
CRAPS_ZH: Final[dict[str, str]] = {
    "pass": "過關",
    "pass_odds": "過關額外投注",
    "come": "來的機率",
    "come_odds": "來的機率額外投注",
    "dont_pass": "不過關",
    "dont_pass_odds": "不過關額外投注",
    "dont_come": "不來的機率",
    "dont_come_odds": "不來的機率額外投注",
    "field": "倍",
    "hard4": "難四",
    "hard6": "難六",
    "hard8": "難八",
    "hard10": "難十",
    "big7": "大七點",
    "eleven": "十一點",
    "any_craps": "任意骰",
    "big6": "大六點",
    "big8": "大八點",
    "big5": "大五點",
    "big9": "大九點",
    "big4": "大四點",
    "big10": "大十點",
}


def decimal(text: str, lang: str) -> str:
    """A number written the English way (``1,234.5``, ``-1.0579%``) as ``lang`` writes it:
    Portuguese (pt-PT) groups with a dot and has a decimal comma (``1.234,5``)."""
    if lang != "pt":
        return text
    return text.translate(str.maketrans(",.", ".,"))


# Craps in Portuguese, as Portuguese-speaking tables name the bets.
CRAPS_PT: Final[dict[str, str]] = {
    "pass": "Linha de Passe",
    "pass_odds": "Probabilidades da Linha de Passe",
    "come": "Vem",
    "come_odds": "Probabilidades do Vem",
    "dont_pass": "Não Passa",
    "dont_pass_odds": "Probabilidades contra do Não Passa",
    "dont_come": "Não Vem",
    "dont_come_odds": "Probabilidades contra do Não Vem",
    "field": "Campo",
    "hard4": "4 Difícil",
    "hard6": "6 Difícil",
    "hard8": "8 Difícil",
    "hard10": "10 Difícil",
    "big7": "7 Grande",
    "eleven": "Onze",
    "any_craps": "Qualquer Craps",
    "big6": "6 Grande",
    "big8": "8 Grande",
    "big5": "5 Grande",
    "big9": "9 Grande",
    "big4": "4 Grande",
    "big10": "10 Grande",
}


def craps_bet(name: str, label: str, lang: str) -> str:
    """A craps bet kind's name in ``lang`` (``label`` is the engine's English)."""
    if lang == "zh":
        return CRAPS_ZH.get(name, label)
    if lang == "pt":
        return CRAPS_PT.get(name, label)
    return label


# Baccarat (BA-6, BA-13): 閒 the Player, 莊 the Banker, 和 a tie.
BACCARAT: Final[dict[str, Text]] = {
    "player": ("Player", "閒", "Jogador"),
    "banker": ("Banker", "莊", "Banca"),
    "tie": ("Tie", "和", "Empate"),
    "player_pair": ("Player pair", "閒對", "Par do Jogador"),
    "banker_pair": ("Banker pair", "莊對", "Par da Banca"),
}

GAMES: Final[dict[str, Text]] = {
    "baccarat": ("Baccarat", "百家樂", "Bacará"),
    "craps": ("Craps", "花旗骰", "Dados"),
    "paigow": ("Pai Gow", "牌九", "Pai Kao"),
    "taiwan": ("Taiwan Pai Kao", "台灣牌九", "Taiwan-Pai Kao"),
}

# The interface's own words (not game terms).
UI: Final[dict[str, Text]] = {
    "site": ("Macau tables", "澳門賭枱", "Mesas de Macau"),
    # the dealer's console at a live table
    "dealer_console": ("Dealer's console", "荷官控制台", "Consola do pagador"),
    "dealer_mode": ("Dealing", "派牌方式", "Distribuição"),
    "live_table": (
        "live: the dealer keys in the physical table",
        "真人：荷官輸入實物結果",
        "ao vivo: o pagador introduz a mesa física",
    ),
    "auto_table": (
        "auto-dealt by the server",
        "伺服器自動派牌",
        "distribuição automática pelo servidor",
    ),
    "last_event": ("Last event", "最後事件", "Último acontecimento"),
    "dealer_ops": (
        "The dealer's operations now",
        "荷官現時的操作",
        "As operações do pagador agora",
    ),
    "key_in": ("Key in what the table shows", "輸入枱面結果", "Introduzir o que a mesa mostra"),
    "keyin_dice": ("The dice as they lie", "骰子點數", "Os dados como ficaram"),
    "keyin_deal": ("The four cards as dealt", "所派四張牌", "As quatro cartas distribuídas"),
    "keyin_third": ("The third card", "第三張牌", "A terceira carta"),
    # BA-7.1: the four cards in dealing order, Player first
    "keyin_p1": ("Player's first card", "閒第一張", "Primeira carta do Jogador"),
    "keyin_b1": ("Banker's first card", "莊第一張", "Primeira carta da Banca"),
    "keyin_p2": ("Player's second card", "閒第二張", "Segunda carta do Jogador"),
    "keyin_b2": ("Banker's second card", "莊第二張", "Segunda carta da Banca"),
    "keyin_tiles": (
        "The banker's dice and the hands as dealt",
        "莊家骰子及所派牌",
        "Os dados do banqueiro e as pedras distribuídas",
    ),
    "keyin_hands": (
        "Hands (seat: four tiles)",
        "牌（門：四隻牌）",
        "Pedras (lugar: quatro pedras)",
    ),
    "card": ("Card", "牌", "Carta"),
    "op_throw_dice": ("Record the throw", "記錄擲骰", "Registar o lançamento"),
    "op_deal": ("Record the deal", "記錄派牌", "Registar a distribuição"),
    "op_draw": ("Record the third card", "記錄第三張牌", "Registar a terceira carta"),
    "op_shake": (
        "Record the dice and the deal",
        "記錄骰子及派牌",
        "Registar os dados e a distribuição",
    ),
    "other_op": ("Another operation", "其他操作", "Outra operação"),
    "args": ("Arguments (JSON)", "參數（JSON）", "Argumentos (JSON)"),
    "bad_json": ("The arguments are not JSON", "參數不是 JSON", "Os argumentos não são JSON"),
    "waiting": (
        "Players the rules wait for",
        "規則等待的玩家",
        "Jogadores por quem as regras esperam",
    ),
    "waiting_note": (
        "At a live table nobody is timed out automatically; the dealer may apply the "
        "rules' default.",
        "真人賭枱不會自動逾時；荷官可按規則代為執行預設操作。",
        "Numa mesa ao vivo ninguém perde a vez automaticamente; o pagador pode aplicar a "
        "opção predefinida das regras.",
    ),
    "apply_default": ("Apply the default", "執行預設", "Aplicar a predefinição"),
    "need_dealer": (
        "Log in as a dealer or a supervisor.",
        "請以荷官或主管身分登入。",
        "Inicie sessão como pagador ou supervisor.",
    ),
    "need_recall": (
        "Recall is for players (their own rounds) and for the floor's staff.",
        "回顧供玩家（自己的局）及樓面人員使用。",
        "A consulta é para os jogadores (as suas jogadas) e para o pessoal da sala.",
    ),
    "lobby": ("Lobby", "大廳", "Salão"),
    "login": ("Log in", "登入", "Iniciar sessão"),
    "logout": ("Log out", "登出", "Terminar sessão"),
    "username": ("User name", "用戶名稱", "Nome de utilizador"),
    "password": ("Password", "密碼", "Palavra-passe"),
    "cashier": ("Cashier", "帳房", "Caixa"),
    "history": ("My history", "我的紀錄", "O meu histórico"),
    "par": ("PAR sheets", "PAR 表", "Folhas PAR"),
    "language": ("Language", "語言", "Língua"),
    "table": ("Table", "賭枱", "Mesa"),
    "game": ("Game", "遊戲", "Jogo"),
    "limits": ("Limits", "投注限額", "Limites"),
    "seats": ("Seats", "座位", "Lugares"),
    "status": ("Status", "狀態", "Estado"),
    "countdown": ("Countdown", "倒數", "Contagem decrescente"),
    "join": ("Join", "入座", "Sentar"),
    "leave": ("Leave", "離座", "Sair"),
    "seat": ("Seat", "座位", "Lugar"),
    "balance": ("Balance", "結餘", "Saldo"),
    "stack": ("Chips at the table", "枱上籌碼", "Fichas na mesa"),
    "bets": ("Bets", "投注", "Apostas"),
    "chips": ("Chips", "籌碼", "Fichas"),
    "confirm": ("Confirm", "確認", "Confirmar"),
    "rebet": ("Rebet", "重複投注", "Repetir aposta"),
    "clear": ("Clear", "清除", "Limpar"),
    "result": ("Result", "結果", "Resultado"),
    "deposit": ("Deposit", "存款", "Depositar"),
    "withdraw": ("Withdraw", "提款", "Levantar"),
    "amount": ("Amount", "金額", "Montante"),
    "submit": ("Submit", "提交", "Submeter"),
    "roads": ("Road maps", "路紙", "Mapas de estradas"),
    "bead_plate": ("Bead Plate", "珠盤路", "Prato de contas"),
    "big_road": ("Big Road", "大路", "Estrada grande"),
    "big_eye_boy": ("Big Eye Boy", "大眼仔", "Olho grande"),
    "small_road": ("Small Road", "小路", "Estrada pequena"),
    "cockroach_pig": ("Cockroach Pig", "曱甴路", "Estrada da barata"),
    "ask_banker": ("Ask Banker", "莊問路", "Perguntar Banca"),
    "ask_player": ("Ask Player", "閒問路", "Perguntar Jogador"),
    "shoe_stats": ("Shoe statistics", "牌靴統計", "Estatísticas do sapato"),
    "cards_left": ("Cards left", "餘牌", "Cartas restantes"),
    "squeeze": ("Squeeze", "咪牌", "Espremer"),
    "reveal": ("Turn over", "開牌", "Voltar"),
    "dice": ("Dice", "骰子", "Dados"),
    "point": ("Point", "點數", "Ponto"),
    "off": ("Off", "關", "Desligado"),
    "on": ("On", "開", "Ligado"),
    "working": ("Working", "有效", "Em vigor"),
    "shooter": ("Shooter", "擲骰者", "Lançador"),
    "throw": ("Throw", "擲骰", "Lançar"),
    "front": ("Front", "頭", "Frente"),
    "back": ("Back", "尾", "Trás"),
    "set_hand": ("Set my tiles", "配牌", "Formar as minhas pedras"),
    "hint": ("Hint", "提示", "Sugestão"),
    "banker_seat": ("Banker", "莊家", "Banqueiro"),
    "take_bank": ("Take the bank", "做莊", "Ficar com a banca"),
    "decline_bank": ("Decline the bank", "不做莊", "Recusar a banca"),
    "co_bank": ("Co-bank", "合莊", "Associar-se ao banqueiro"),
    "rearrange": ("Rearrange", "重排", "Mudar a ordem"),
    "settlement": ("Settlement", "結算", "Liquidação"),
    "bank_balance": ("Bank's running balance", "莊家結餘", "Saldo corrente da banca"),
    "forced": ("Forced setting", "強制配牌", "Combinação obrigatória"),
    "count": ("Count", "數位", "Contagem"),
    "places": ("Places", "門", "Lugares"),
    "events": ("What happened", "牌局紀錄", "O que aconteceu"),
    "no_tables": ("No table is open.", "沒有開放的賭枱。", "Nenhuma mesa está aberta."),
    "need_login": ("Log in to play.", "請先登入。", "Inicie sessão para jogar."),
    "connecting": ("Connecting…", "連線中…", "A ligar…"),
    "disconnected": (
        "Disconnected — reconnecting…",
        "連線中斷，重新連線中…",
        "Desligado — a voltar a ligar…",
    ),
    "rule_set": ("Rule set", "規則", "Regras"),
    "bet": ("Bet", "投注", "Aposta"),
    "rule": ("Rule", "規則編號", "Regra"),
    "pays": ("Pays", "賠率", "Paga"),
    "p_win": ("P(win)", "贏的機率", "P(ganhar)"),
    "p_lose": ("P(lose)", "輸的機率", "P(perder)"),
    "p_push": ("P(push)", "和的機率", "P(empate)"),
    "house_edge": ("House edge", "莊家優勢", "Vantagem da casa"),
    "std_dev": ("Std dev", "標準差", "Desvio-padrão"),
    "more": ("More", "其他", "Mais"),
    "show": ("Show", "顯示", "Mostrar"),
    "setting": ("Setting", "配法", "Combinação"),
    "ev": ("EV per unit", "每單位期望值", "Valor esperado por unidade"),
    "tiles": ("Tiles", "牌", "Pedras"),
    "hand_name": ("Hand", "牌名", "Mão"),
    "rank": ("Rank", "排名", "Posição"),
    "when": ("When", "時間", "Quando"),
    "what": ("What", "事項", "O quê"),
    "net": ("Net", "淨額", "Líquido"),
    "recall": ("Recall", "回顧", "Consulta"),
    "my_rounds": ("My last rounds", "我最近的局", "As minhas últimas jogadas"),
    "table_rounds": ("A table's last rounds", "賭枱最近的局", "As últimas jogadas de uma mesa"),
    "steps": ("Steps", "步驟", "Passos"),
    "staked": ("Staked", "投注", "Apostado"),
    "returned": ("Returned", "退回及派彩", "Devolvido e pago"),
    "time": ("Time", "時間", "Hora"),
    "actor": ("Who", "執行者", "Quem"),
    "view_after": ("The table after this step", "此步驟後的賭枱", "A mesa depois deste passo"),
    "no_rounds": ("No rounds yet.", "尚未有局。", "Ainda não há jogadas."),
    "player": ("Player", "閒家", "Jogador"),
    "dealer": ("Dealer", "荷官", "Pagador"),
    "empty": ("empty", "空", "vazio"),
    "main": ("Main content", "主要內容", "Conteúdo principal"),
    "skip": ("Skip to the content", "跳至內容", "Saltar para o conteúdo"),
    "cashier_note": (
        "Deposit into or withdraw from a player's wallet (through the cage).",
        "存入或提取玩家錢包的款項（經帳房）。",
        "Depositar na carteira de um jogador ou levantar dela (pela caixa).",
    ),
    # meters and the gaming-day close
    "meters": ("Meters", "營業表", "Contadores"),
    "meters_note": (
        "Per table and gaming day: drop (chips bought), win, hold = win ÷ drop, the "
        "theoretical win from the exact PAR of each table's rules, and the check that the "
        "journal and the ledger agree. Supervisors and auditors only.",
        "每張賭枱每個博彩日：投入（購買籌碼）、贏額、贏率 = 贏額 ÷ 投入、按各枱規則精確 PAR "
        "計算的理論贏額，以及帳目與紀錄是否相符。僅限主管及稽核員。",
        "Por mesa e dia de jogo: entrada (fichas compradas), ganho, retenção = ganho ÷ entrada, "
        "o ganho teórico pelo PAR exacto das regras de cada mesa, e a verificação de que o "
        "diário e o razão coincidem. Só supervisores e auditores.",
    ),
    "need_staff": (
        "Log in as a supervisor or an auditor.",
        "請以主管或稽核員登入。",
        "Inicie sessão como supervisor ou auditor.",
    ),
    "gaming_day": ("Gaming day", "博彩日", "Dia de jogo"),
    "drop": ("Drop", "投入", "Entrada"),
    "cash_out": ("Cash-out", "兌出", "Troca de fichas"),
    "win": ("Win", "贏額", "Ganho"),
    "commission": ("Commission", "佣金", "Comissão"),
    "handle": ("Handle", "投注額", "Volume de apostas"),
    "hold": ("Hold", "贏率", "Retenção"),
    "theo_win": ("Theoretical win", "理論贏額", "Ganho teórico"),
    "theo_hold": ("Theoretical hold", "理論贏率", "Retenção teórica"),
    "reconciled": ("Journal = ledger", "紀錄 = 帳目", "Diário = razão"),
    "mismatch": ("MISMATCH", "不符", "NÃO COINCIDE"),
    "unavailable": ("unavailable", "不適用", "indisponível"),
    "total": ("Total", "合計", "Total"),
    "close_day": ("Close the gaming day", "結束博彩日", "Fechar o dia de jogo"),
    "closed_by": ("Closed by", "結帳人", "Fechado por"),
    "live_figures": (
        "Live figures (not closed)",
        "即時數字（未結帳）",
        "Números correntes (não fechados)",
    ),
    "actions": ("Your turn", "輪到你", "A sua vez"),
    "join_table": ("Join the table", "加入賭枱", "Sentar-se à mesa"),
    "raw_journal": (
        "The journal as recorded (for auditors)",
        "原始紀錄（供稽核）",
        "O diário tal como registado (para auditores)",
    ),
    "bad_amount": (
        "Enter an amount in MOP, such as 100 or 25.50.",
        "請輸入澳門元金額，例如 100 或 25.50。",
        "Introduza um montante em MOP, por exemplo 100 ou 25,50.",
    ),
    "your_wallet": ("your wallet", "你的錢包", "a sua carteira"),
    "my_money": ("My wallet and chips", "我的錢包及籌碼", "A minha carteira e fichas"),
    "your_chips": ("your chips", "你的籌碼", "as suas fichas"),
    "refused": (
        "The server refused the request.",
        "伺服器拒絕了這個要求。",
        "O servidor recusou o pedido.",
    ),
    "your_bet": ("Your bet", "你的投注", "A sua aposta"),
    "no_limits": ("no limits", "不設限額", "sem limites"),
    "log_in_to_play": ("Log in to play", "登入後入座", "Inicie sessão para jogar"),
    "who.house": ("the house", "賭場", "o casino"),
    "who.dealer": ("the dealer", "荷官", "o pagador"),
    "who.system": ("the table", "賭枱", "a mesa"),
    "ph.shuffle": ("shuffling", "洗牌", "a baralhar"),
    "ph.cut": ("the cut", "切牌", "o corte"),
    "ph.burn": ("the burn", "燒牌", "a queima"),
    "ph.demonstration": ("demonstration hands", "示範牌局", "mãos de demonstração"),
    "ph.betting": ("betting", "投注中", "apostas"),
    "ph.dealing": ("dealing", "派牌中", "distribuição"),
    "ph.come-out": ("come-out roll", "出場擲骰", "lançamento de saída"),
    "ph.point": ("point", "點數階段", "ponto"),
    "ph.bank": ("the bank", "做莊", "a banca"),
    "ph.setting": ("setting the tiles", "配牌中", "a formar as pedras"),
    "ph.settle": ("settling", "結算中", "liquidação"),
    "ph.reveal": ("turning over", "開牌", "a abrir"),
    "amount_mop": ("Amount (MOP)", "金額（澳門元）", "Montante (MOP)"),
    "st.open": ("open", "開放", "aberta"),
    "st.paused": ("paused", "暫停", "em pausa"),
    "st.closed": ("closed", "關閉", "fechada"),
    "st.locked": ("locked", "鎖定", "bloqueada"),
    "st.frozen": ("frozen", "凍結", "congelada"),
    "cd.in": ("{op} in {s} s", "{s} 秒後{op}", "{op} dentro de {s} s"),
    "cd.due": ("{op} — waiting", "等待{op}", "{op} — em espera"),
    "cd.betting": ("Bets close in {s} s", "{s} 秒後停止投注", "As apostas fecham dentro de {s} s"),
    "cd.open": ("Bets are open", "現正接受投注", "As apostas estão abertas"),
    "wallet": ("Wallet", "錢包", "Carteira"),
    "round": ("Round", "局", "Jogada"),
    "standing": ("Standing", "站立投注", "Apostas permanentes"),
    "reset_note": (
        "TW-6b: a player's tiles must be set with the highest back they allow; the dealer "
        "re-set them to the forced setting",
        "TW-6b：閒家須以最大的尾配牌；荷官已按強制配法重新配牌",
        "TW-6b: o jogador tem de formar o par de trás mais elevado possível; o pagador "
        "reorganizou as pedras na combinação obrigatória",
    ),
    # the PAR viewer's rule choices
    "par.decks": ("decks", "副牌數", "baralhos"),
    "par.commission": ("commission", "佣金", "comissão"),
    "par.odds_cap": ("odds cap", "額外投注上限", "limite das probabilidades"),
    "par.player_strategy": ("player", "閒家配牌", "jogador"),
    "par.banker_strategy": ("banker", "莊家配牌", "banqueiro"),
    # the supervisor's page
    "supervisor": ("Supervisor", "主管", "Supervisor"),
    "sv.need": (
        "Log in as a supervisor (an auditor reads).",
        "請以主管身分登入（稽核員可閱覽）。",
        "Inicie sessão como supervisor (um auditor consulta).",
    ),
    "sv.requests": ("Requests to decide", "待批核的申請", "Pedidos a decidir"),
    "sv.audit": ("Audit log", "稽核紀錄", "Registo de auditoria"),
    "sv.disputes": ("Disputes", "爭議", "Litígios"),
    "sv.act": ("Act at a table", "賭枱操作", "Agir numa mesa"),
    "sv.void": ("Void the last round", "取消最後一局", "Anular a última jogada"),
    "sv.correct": (
        "Correct a keyed-in result",
        "更正輸入的結果",
        "Corrigir um resultado introduzido",
    ),
    "sv.limits": (
        "Limits from the next round",
        "下一局起的投注限額",
        "Limites a partir da próxima jogada",
    ),
    "sv.freeze": ("Freeze a disputed round", "凍結有爭議的一局", "Congelar uma jogada em litígio"),
    "sv.release": ("Release the table", "解除凍結", "Libertar a mesa"),
    "sv.ask": ("Request", "提出申請", "Pedir"),
    "sv.approve": ("Approve", "批准", "Aprovar"),
    "sv.reject": ("Reject", "拒絕", "Rejeitar"),
    "sv.reason": ("Reason", "原因", "Motivo"),
    "sv.of_seq": (
        "Event number (seq) keyed in",
        "輸入事件編號",
        "Número do acontecimento (seq) introduzido",
    ),
    "sv.args": ("Corrected values (JSON)", "更正值（JSON）", "Valores corrigidos (JSON)"),
    "sv.min": ("Minimum bet (MOP)", "最低投注（澳門元）", "Aposta mínima (MOP)"),
    "sv.max": ("Maximum bet (MOP)", "最高投注（澳門元）", "Aposta máxima (MOP)"),
    "sv.bac_limits": (
        "Baccarat: the other bets (blank: unchanged; min and max above are Player and Banker)",
        "百家樂：其他投注（留空即不變；上列最低及最高為閒、莊）",
        "Bacará: as outras apostas (em branco: sem alteração; o mínimo e o máximo acima são "
        "Jogador e Banca)",
    ),
    "sv.lim_tie": ("Tie", "和", "Empate"),
    "sv.lim_banker_pair": ("Banker Pair", "莊對", "Par da Banca"),
    "sv.lim_player_pair": ("Player Pair", "閒對", "Par do Jogador"),
    "sv.differential": (
        "Banker/Player difference limit (MOP, blank: unchanged)",
        "莊閒差額上限（澳門元，留空即不變）",
        "Limite da diferença Banca/Jogador (MOP, em branco: sem alteração)",
    ),
    "sv.note": ("What happened", "經過", "O que aconteceu"),
    "sv.evidence": (
        "Evidence (video / photo ids, comma separated)",
        "證據（錄影／相片編號，以逗號分隔）",
        "Provas (ids de vídeo / fotografia, separados por vírgulas)",
    ),
    "sv.seqs": (
        "Events concerned (seqs, comma separated)",
        "相關事件（編號，以逗號分隔）",
        "Acontecimentos em causa (seqs, separados por vírgulas)",
    ),
    "sv.state": ("State", "狀態", "Estado"),
    "sv.when": ("When", "時間", "Quando"),
    "sv.who": ("Who", "人員", "Quem"),
    "sv.what": ("What", "事項", "O quê"),
    "sv.id": ("No.", "編號", "N.º"),
}


# The player's table pages, the lobby's filters and the side-by-side view (merged into the
# lookups of t() and strings(), beside UI).
PLAYER_UI: Final[dict[str, Text]] = {
    "undo": ("Undo", "撤銷", "Desfazer"),
    "double": ("Double", "加倍", "Dobrar"),
    "total_bet": ("Total bet", "總投注", "Total apostado"),
    "last_win": ("Last win", "上次贏得", "Último ganho"),
    "res.win": ("Won", "贏", "Ganhou"),
    "res.lose": ("Lost", "輸", "Perdeu"),
    "res.push": ("Push", "和局退回", "Empate, devolvida"),
    "res.no_action": ("No action", "無效，退回", "Sem acção, devolvida"),
    "your_result": ("Your result", "你的結果", "O seu resultado"),
    "round_history": ("Rounds at this table", "本枱牌局", "Jogadas nesta mesa"),
    "round_n": ("Round {n}", "第 {n} 局", "Jogada {n}"),
    "hand_n": ("Hand {n}", "第 {n} 手", "Mão {n}"),
    "roll_n": ("Roll {n}", "第 {n} 擲", "Lançamento {n}"),
    "no_bet": ("no bet", "未投注", "sem aposta"),
    "missed": (
        "While you were away",
        "你離線期間",
        "Enquanto esteve ausente",
    ),
    "dismiss": ("Dismiss", "關閉", "Fechar"),
    "closed_now": ("No bets now", "暫不接受投注", "Sem apostas agora"),
    "others_bet": ("Others", "其他玩家", "Outros"),
    "mine": ("Mine", "我的", "Minhas"),
    "chip_value": ("Chip MOP {v}", "籌碼 澳門元 {v}", "Ficha MOP {v}"),
    "chip_afford": (
        "more than your chips",
        "超過你的籌碼",
        "mais do que as suas fichas",
    ),
    "chip_limit": ("over the limit", "超過限額", "acima do limite"),
    "up_to": ("up to {amount}", "最多 {amount}", "até {amount}"),
    "sound": ("Sound", "聲音", "Som"),
    "shortcuts": ("Keyboard", "鍵盤快捷鍵", "Teclado"),
    "keys_chips": (
        "1–{n} pick a chip · a spot adds it · U undo · Esc clear · R rebet · D double · C confirm",
        "1–{n} 選籌碼 · 點投注區加注 · U 撤銷 · Esc 清除 · R 重複投注 · D 加倍 · C 確認",
        "1–{n} escolhe uma ficha · uma casa junta-a · U desfazer · Esc limpar · R repetir · "
        "D dobrar · C confirmar",
    ),
    "keys_baccarat": (
        "P Player · B Banker · T Tie · S turn over the cards you hold",
        "P 閒 · B 莊 · T 和 · S 開你手上的牌",
        "P Jogador · B Banca · T Empate · S voltar as cartas que segura",
    ),
    "keys_craps": (
        "X (or Space) throws the dice when you shoot",
        "輪到你擲骰時按 X（或空白鍵）",
        "X (ou Espaço) lança os dados quando é o lançador",
    ),
    "keys_tiles": (
        "F / K move the focused tile to the front / the back",
        "F / K 把選中的牌移到頭 / 尾",
        "F / K movem a pedra em foco para a frente / trás",
    ),
    "bets_sent": ("Bets placed", "已投注", "Apostas feitas"),
    "at_table": ("At this table", "在此賭枱", "Nesta mesa"),
    "seat.player": ("the place wins", "該門贏", "ganha o lugar"),
    "seat.banker": ("the bank wins", "莊家贏", "ganha a banca"),
    "seat.push": ("stand-off", "和局", "empate"),
    "draft_note": (
        "Not yet placed: confirm",
        "尚未投注：請確認",
        "Ainda não feita: confirme",
    ),
    # the squeeze (BA-16)
    "squeeze_yours": (
        "You hold the {side} cards: squeeze them",
        "你持有{side}的牌：請咪牌",
        "Segura as cartas do {side}: esprema-as",
    ),
    "squeeze_how": (
        "Drag a card up to peel it, or press Turn over. When the time is up the dealer turns "
        "them over (BA-16).",
        "把牌向上拖開即可咪牌，或按「開牌」。時間到，荷官會代為開牌（BA-16）。",
        "Arraste uma carta para cima para a descobrir, ou carregue em Voltar. Quando o tempo "
        "acabar, o pagador volta-as (BA-16).",
    ),
    "squeeze_by": (
        "{who} squeezes the {side} cards",
        "{who} 咪{side}的牌",
        "{who} espreme as cartas do {side}",
    ),
    "no_squeeze": (
        "The dealer turns the cards over at this table.",
        "本枱由荷官開牌。",
        "Nesta mesa o pagador volta as cartas.",
    ),
    "ask_note": (
        "The marks the three derived roads would get if the next hand were Banker / Player.",
        "若下一手為莊／閒，三條下路將出現的標記。",
        "As marcas que as três estradas derivadas teriam se a próxima mão fosse Banca / Jogador.",
    ),
    "outcome.B": ("Banker wins", "莊贏", "Ganha a Banca"),
    "outcome.P": ("Player wins", "閒贏", "Ganha o Jogador"),
    "outcome.T": ("Tie", "和局", "Empate"),
    "outcome.void": ("Void", "取消", "Anulada"),
    # craps
    "point_box": ("Point {n}", "點數 {n}", "Ponto {n}"),
    "odds": ("Odds", "額外投注", "Probabilidades"),
    "odds_on": ("Odds on {bet}", "{bet}額外投注", "Probabilidades sobre {bet}"),
    "line_bets": ("Line bets", "過關投注", "Apostas de linha"),
    "props": ("One-roll and hard ways", "單擲及難數", "De um lançamento e difíceis"),
    "bigs": ("Big numbers", "大數", "Números grandes"),
    "numbers": ("The numbers", "點數", "Os números"),
    "puck": ("The puck", "標記", "O marcador"),
    "puck_off": ("OFF: the come-out roll", "OFF：出場擲骰", "OFF: lançamento de saída"),
    "puck_on": ("ON: the point is {n}", "ON：點數為 {n}", "ON: o ponto é {n}"),
    "you_shoot": ("You are the shooter", "你是擲骰者", "É o lançador"),
    "seven_out": ("seven out", "七點出局", "sete, fim da mão"),
    "point_set": ("point {n}", "點數 {n}", "ponto {n}"),
    "point_made": ("point {n} made", "中點數 {n}", "ponto {n} feito"),
    # the tiles
    "woodpile": ("Woodpile", "牌疊", "Pilha de pedras"),
    "woodpile_note": (
        "Before the dice you may rearrange the stacks: tap two stacks to swap them, then "
        "Rearrange.",
        "擲骰前可重排牌疊：點選兩疊互換，然後按「重排」。",
        "Antes dos dados pode mudar a ordem: toque em duas pilhas para as trocar e depois em "
        "Mudar a ordem.",
    ),
    "stack_n": ("Stack {n}", "第 {n} 疊", "Pilha {n}"),
    "how_to_set": (
        "Tap a tile to move it to the front, then the back; tap it again to take it back — "
        "or drag it. The front is the lower hand, the back the higher.",
        "點選牌移到頭，再點移到尾；再點一次取回，亦可拖放。頭為較小的一手，尾為較大的一手。",
        "Toque numa pedra para a pôr na frente, depois atrás; toque outra vez para a retirar "
        "— ou arraste-a. A frente é a mão mais baixa, a de trás a mais alta.",
    ),
    "use_setting": ("Use this setting", "用此配法", "Usar esta combinação"),
    "forced_explain": (
        "TW-6b: at this table a player must set the highest back his tiles allow. This is "
        "that setting; set another and the dealer re-sets your tiles to it.",
        "TW-6b：本枱閒家須以最大的尾配牌。這就是該配法；若另配，荷官會按此重新配牌。",
        "TW-6b: nesta mesa o jogador tem de formar o par de trás mais alto que as pedras "
        "permitem. É esta combinação; se formar outra, o pagador reorganiza as pedras assim.",
    ),
    "dealer_reset": (
        "The dealer re-set place {seat}'s tiles",
        "荷官已重新配第 {seat} 門的牌",
        "O pagador reorganizou as pedras do lugar {seat}",
    ),
    "bet_on_place": ("Bet on place {n}", "投注第 {n} 門", "Apostar no lugar {n}"),
    "place_n": ("Place {n}", "第 {n} 門", "Lugar {n}"),
    "your_place": ("your place", "你的門", "o seu lugar"),
    # the lobby and the side-by-side view
    "all_games": ("All games", "全部遊戲", "Todos os jogos"),
    "stakes": ("Stakes", "注碼", "Apostas"),
    "stakes_all": ("All stakes", "全部注碼", "Todas as apostas"),
    "stakes_low": (
        "Minimum up to MOP 100",
        "最低投注 澳門元 100 或以下",
        "Mínimo até MOP 100",
    ),
    "stakes_mid": (
        "Minimum MOP 100 to 1,000",
        "最低投注 澳門元 100 至 1,000",
        "Mínimo de MOP 100 a 1.000",
    ),
    "stakes_high": (
        "Minimum over MOP 1,000",
        "最低投注 澳門元 1,000 以上",
        "Mínimo acima de MOP 1.000",
    ),
    "seats_taken": ("{n} of {m} taken", "已坐 {n}／{m}", "{n} de {m} ocupados"),
    "players_here": ("{n} playing", "{n} 人在玩", "{n} a jogar"),
    "side_by_side": ("Side by side", "多枱並排", "Lado a lado"),
    "add_side": ("Side by side", "加入多枱並排", "Lado a lado"),
    "open_side": (
        "Open side by side ({n})",
        "並排打開（{n}）",
        "Abrir lado a lado ({n})",
    ),
    "open_table": ("Open the table", "打開賭枱", "Abrir a mesa"),
    "needs_you": ("Needs you", "等你行動", "Espera por si"),
    "no_tables_match": (
        "No table matches these filters.",
        "沒有符合條件的賭枱。",
        "Nenhuma mesa corresponde a estes filtros.",
    ),
    "multi_note": (
        "Each table plays live here; the one that needs you is marked. Keys act on the "
        "table you are in.",
        "每張賭枱在此即時進行；等你行動的賭枱會標示。鍵盤只作用於你所在的賭枱。",
        "Cada mesa joga aqui ao vivo; a que espera por si fica marcada. As teclas actuam na "
        "mesa onde está.",
    ),
    "pick_tables": (
        "Pick tables in the lobby (Side by side) to play them here.",
        "請在大廳勾選「加入多枱並排」，即可在此同時玩。",
        "Escolha mesas no salão (Lado a lado) para as jogar aqui.",
    ),
}


# Every operation the engines accept (games/*.py, the server's test double), as buttons and
# the countdown name them.
OPS: Final[dict[str, Text]] = {
    "join": ("Join", "入座", "Sentar"),
    "sit": ("Sit", "入座", "Sentar"),
    "leave": ("Leave", "離座", "Sair"),
    "buy_in": ("Buy chips", "買籌碼", "Comprar fichas"),
    "buy_chips": ("Buy chips", "買籌碼", "Comprar fichas"),
    "cash_out": ("Cash out", "兌換籌碼", "Trocar fichas"),
    "bet": ("Bet", "投注", "Apostar"),
    "place_bet": ("Bet", "投注", "Apostar"),
    "change_bet": ("Change the bet", "更改投注", "Mudar a aposta"),
    "withdraw_bet": ("Withdraw the bet", "收回投注", "Retirar a aposta"),
    "withdraw": ("Withdraw the bet", "收回投注", "Retirar a aposta"),
    "take_down": ("Take down", "收回投注", "Retirar"),
    "increase_bet": ("Increase", "加注", "Aumentar"),
    "throw": ("Throw", "擲骰", "Lançar"),
    "pass_dice": ("Pass the dice", "讓出骰子", "Passar os dados"),
    "reveal": ("Turn over", "開牌", "Voltar"),
    "squeeze": ("Squeeze", "咪牌", "Espremer"),
    "cut": ("Cut the cards", "切牌", "Cortar as cartas"),
    "open_bank": ("Take the bank", "做莊", "Ficar com a banca"),
    "decline_bank": ("Decline the bank", "不做莊", "Recusar a banca"),
    "join_bank": ("Co-bank", "合莊", "Associar-se ao banqueiro"),
    "house_banks": ("The house banks", "由莊家（賭場）做莊", "O casino fica com a banca"),
    "rearrange": ("Rearrange", "重排", "Mudar a ordem"),
    "set_tiles": ("Set my tiles", "配牌", "Formar as minhas pedras"),
    "shuffle": ("Shuffle", "洗牌", "Baralhar"),
    "load_shoe": ("Load the shoe", "裝牌入靴", "Carregar o sapato"),
    "open_shoe": ("Open the shoe", "開新牌靴", "Abrir o sapato"),
    "end_shoe": ("End the shoe", "結束牌靴", "Terminar o sapato"),
    "burn": ("Burn", "燒牌", "Queimar"),
    "deal": ("Deal", "派牌", "Distribuir"),
    "draw": ("Draw a third card", "補第三張牌", "Tirar uma terceira carta"),
    "expose_card": ("Expose a card", "翻開一張牌", "Expor uma carta"),
    "report_exposed": ("Report an exposed tile", "報告翻開的牌", "Comunicar uma pedra exposta"),
    "correct_error": (
        "Correct a dealing error",
        "更正派牌錯誤",
        "Corrigir um erro de distribuição",
    ),
    "void_hand": ("Void the hand", "取消此手牌", "Anular a mão"),
    "void_throw": ("Void the throw", "取消此次擲骰", "Anular o lançamento"),
    "void_round": ("Void the round", "取消此局", "Anular a jogada"),
    "correct_round": ("Correct the round", "更正此局", "Corrigir a jogada"),
    "change_limits": ("Change the limits", "更改投注限額", "Mudar os limites"),
    "throw_dice": ("Throw the dice", "擲骰", "Lançar os dados"),
    "build_woodpile": ("Build the woodpile", "砌牌", "Formar a pilha"),
    "shake": ("Shake the dice", "搖骰", "Agitar os dados"),
    "settle": ("Settle", "結算", "Liquidar"),
    "time_out": ("Time out", "逾時", "Tempo esgotado"),
    "checkpoint": ("Checkpoint", "檢查點", "Ponto de controlo"),
}

# What happened, as the croupier says it (the live tables' log): by the event kind's last
# part; "[ … {x} …]" is said only when the event has x (live.js, narrate).
EVENTS: Final[dict[str, Text]] = {
    "player_joined": (
        "{who} joins the table[ at seat {seat}][ with {amount}]",
        "{who} 入座[（{seat} 號位）][，買入 {amount}]",
        "{who} senta-se à mesa[ no lugar {seat}][ com {amount}]",
    ),
    "joined": (
        "{who} joins the table[ with {amount}]",
        "{who} 入座[，買入 {amount}]",
        "{who} senta-se à mesa[ com {amount}]",
    ),
    "seated": ("{who} takes seat {seat}", "{who} 坐在 {seat} 號位", "{who} ocupa o lugar {seat}"),
    "player_sat": (
        "{who} sits at place {seat}",
        "{who} 坐在第 {seat} 門",
        "{who} senta-se no lugar {seat}",
    ),
    "player_left": ("{who} leaves the table", "{who} 離座", "{who} sai da mesa"),
    "left": ("{who} leaves the table", "{who} 離座", "{who} sai da mesa"),
    "chips_bought": (
        "{who} buys {amount} in chips",
        "{who} 買入籌碼 {amount}",
        "{who} compra {amount} em fichas",
    ),
    "chips_cashed": (
        "{who} cashes out[ {amount}]",
        "{who} 兌換籌碼[ {amount}]",
        "{who} troca as fichas[ {amount}]",
    ),
    "bet_placed": (
        "{who} bets {amount}[ on {bet}][ on place {seat}]",
        "{who} 投注 {amount}[（{bet}）][（第 {seat} 門）]",
        "{who} aposta {amount}[ em {bet}][ no lugar {seat}]",
    ),
    "bet_changed": (
        "{who} changes a bet[ on {bet}]",
        "{who} 更改投注[（{bet}）]",
        "{who} muda uma aposta[ em {bet}]",
    ),
    "bet_withdrawn": ("{who} takes a bet back", "{who} 收回投注", "{who} retira uma aposta"),
    "bet_taken_down": (
        "{who} takes down a bet[ on {bet}]",
        "{who} 收回投注[（{bet}）]",
        "{who} retira uma aposta[ em {bet}]",
    ),
    "bet_increased": (
        "{who} adds {amount}[ to {bet}]",
        "{who} 加注 {amount}[（{bet}）]",
        "{who} junta {amount}[ a {bet}]",
    ),
    "shoe_shuffled": ("The cards are shuffled", "洗牌", "As cartas são baralhadas"),
    "shoe_loaded": ("The shoe is loaded", "裝牌入靴", "O sapato é carregado"),
    "shoe_opened": ("A new shoe", "開新牌靴", "Um sapato novo"),
    "shoe_ended": ("The shoe is finished", "牌靴完結", "O sapato terminou"),
    "cut_card_placed": (
        "[{who} cuts: ]the cut card is placed",
        "[{who} 切牌：]放入切牌卡",
        "[{who} corta: ]a carta de corte é colocada",
    ),
    "cards_burned": ("The dealer burns cards", "荷官燒牌", "O pagador queima cartas"),
    "cards_dealt": ("The dealer deals the cards", "荷官派牌", "O pagador distribui as cartas"),
    "cards_keyed": (
        "The dealer keys in the cards",
        "荷官輸入所派的牌",
        "O pagador introduz as cartas",
    ),
    "third_card_dealt": ("A third card is drawn", "補第三張牌", "É tirada uma terceira carta"),
    "cards_revealed": (
        "[{who} turns over: ]the cards are shown",
        "[{who} 開牌：]牌已翻開",
        "[{who} volta as cartas: ]as cartas são mostradas",
    ),
    "card_exposed": ("A card was exposed", "有牌被翻開", "Uma carta foi exposta"),
    "card_dealt": (
        "A card is dealt[ to {who}]",
        "派牌[給 {who}]",
        "É distribuída uma carta[ a {who}]",
    ),
    "card_revealed": (
        "[{who}: ]the card is turned over",
        "[{who}：]翻牌",
        "[{who}: ]a carta é voltada",
    ),
    "house_card": ("The house's card is dealt", "莊家派牌", "É distribuída a carta do casino"),
    "hand_settled": ("The hand is settled", "此手牌已結算", "A mão é liquidada"),
    "round_settled": ("The round is settled", "此局已結算", "A jogada é liquidada"),
    "roll_settled": (
        "The bets on this roll are settled",
        "此擲已結算",
        "As apostas deste lançamento são liquidadas",
    ),
    "hand_voided": ("The hand is voided", "此手牌已取消", "A mão é anulada"),
    "throw_voided": ("The throw is voided", "此次擲骰已取消", "O lançamento é anulado"),
    "round_voided": ("The round is voided", "此局已取消", "A jogada é anulada"),
    "round_corrected": ("The round is corrected", "此局已更正", "A jogada é corrigida"),
    "dealing_error_corrected": (
        "A dealing error is corrected",
        "派牌錯誤已更正",
        "Um erro de distribuição é corrigido",
    ),
    "dice_thrown": (
        "{who} throws[ {dice}][: {total}]",
        "{who} 擲骰[ {dice}][：{total} 點]",
        "{who} lança[ {dice}][: {total}]",
    ),
    "dice_passed": ("The dice pass to {who}", "骰子交給 {who}", "Os dados passam para {who}"),
    "dice_shaken": (
        "The dice are shaken[: {dice}]",
        "搖骰[：{dice}]",
        "Os dados são agitados[: {dice}]",
    ),
    "limits_changed": (
        "New limits from the next round",
        "下一局起使用新限額",
        "Novos limites a partir da próxima jogada",
    ),
    "seed_committed": (
        "The shuffle is sealed (its seal is in the journal)",
        "洗牌已封存（封存碼見原始紀錄）",
        "O baralhar é selado (o selo está no diário)",
    ),
    "seed_revealed": (
        "The shuffle's seal is opened (the seed is in the journal)",
        "洗牌封存已公開（種子見原始紀錄）",
        "O selo do baralhar é aberto (a semente está no diário)",
    ),
    "timed_out": (
        "Time is up[ for {who}][: {op}]",
        "[{who} ]時間到[：{op}]",
        "Tempo esgotado[ para {who}][: {op}]",
    ),
    "opened": ("The table opens", "賭枱開放", "A mesa abre"),
    "checkpoint": ("The table's checkpoint", "賭枱檢查點", "O ponto de controlo da mesa"),
    "bank_declined": ("{who} declines the bank", "{who} 不做莊", "{who} recusa a banca"),
    "bank_opened": (
        "{who} takes the bank[ at place {seat}][ with {amount}]",
        "{who} 做莊[（第 {seat} 門）][，本金 {amount}]",
        "{who} fica com a banca[ no lugar {seat}][ com {amount}]",
    ),
    "cobank_joined": (
        "{who} co-banks[ {amount}]",
        "{who} 合莊[ {amount}]",
        "{who} associa-se ao banqueiro[ {amount}]",
    ),
    "stacks_rearranged": ("The stacks are rearranged", "牌疊已重排", "A ordem das pedras é mudada"),
    "tiles_dealt": ("The tiles are dealt", "派牌", "As pedras são distribuídas"),
    "hands_keyed": (
        "The dealer keys in the hands",
        "荷官輸入所派的牌",
        "O pagador introduz as pedras",
    ),
    "tiles_exposed": ("Tiles are turned up", "翻牌", "São voltadas pedras"),
    "tiles_set": (
        "{who} sets the tiles[ at place {seat}]",
        "{who} 配牌[（第 {seat} 門）]",
        "{who} forma as pedras[ no lugar {seat}]",
    ),
    "woodpile_built": (
        "The tiles are shuffled into a woodpile",
        "洗牌砌牌",
        "As pedras são baralhadas e empilhadas",
    ),
    "woodpile_ended": ("The woodpile is finished", "牌疊用完", "A pilha de pedras terminou"),
}


def lang_of(value: str | None) -> str:
    """A supported language code (one of LANGS), the default for anything else."""
    return value if value in LANGS else DEFAULT_LANG


def t(key: str, lang: str) -> str:
    """The interface word ``key`` in ``lang`` (the key itself if unknown: visible, not fatal)."""
    if key.startswith("op.") and key[3:] in OPS:
        return pick(OPS[key[3:]], lang)
    return pick(UI.get(key) or PLAYER_UI.get(key) or (key, key, key), lang)


def game_name(game: str, lang: str) -> str:
    return pick(GAMES.get(game, (game, game, game)), lang)


def strings(lang: str) -> dict[str, str]:
    """Every word a page's script needs, in ``lang`` (embedded in the page as JSON)."""
    out = {k: pick(v, lang) for k, v in (UI | PLAYER_UI).items()}
    for k, v in BACCARAT.items():
        out[f"ba.{k}"] = pick(v, lang)
    from macau_tables.games.craps import BET_KINDS

    for name, bet in BET_KINDS.items():
        out[f"cr.{name}"] = craps_bet(name, bet.label, lang)
    for tile in TABLE_I:
        for lo, hi in tile.pips:
            out[f"tile.{lo}-{hi}"] = tile.chinese if lang == "zh" else tile.english
    for g, v in GAMES.items():
        out[f"game.{g}"] = pick(v, lang)
    for op, v in OPS.items():
        out[f"op.{op}"] = pick(v, lang)
    for kind, v in EVENTS.items():
        out[f"ev.{kind}"] = pick(v, lang)
    return out


def par_bet_name(game: str, name: str, lang: str) -> str:
    """A PAR sheet's bet name in ``lang``: in Chinese the regulation's name, in Portuguese the
    table's, the English kept beside it where the sheet adds words (``過關額外投注 · Pass Line
    odds on 4``)."""
    if lang not in ("zh", "pt"):
        return name
    if game == "baccarat" and name in BACCARAT:
        return pick(BACCARAT[name], lang)
    if game == "craps":
        from macau_tables.games.craps import BET_KINDS

        labels = sorted(((k.label, n) for n, k in BET_KINDS.items()), key=lambda x: -len(x[0]))
        for label, kind in labels:
            if name == label:
                return craps_bet(kind, label, lang)
            if name.startswith(label + " "):
                return f"{craps_bet(kind, label, lang)} · {name}"
    return name


# The staff's consoles (the administrator's accounts, the supervisor's pit, the dealer's
# forms) and the player's history and account. Merged into UI below: t() and strings()
# find them there (tests/web/test_staff_words.py: no key of UI's redefined).
STAFF_UI: Final[dict[str, Text]] = {
    # roles
    "role.player": ("player", "玩家", "jogador"),
    "role.dealer": ("dealer", "荷官", "pagador"),
    "role.cashier": ("cashier", "帳房", "caixa"),
    "role.supervisor": ("supervisor", "主管", "supervisor"),
    "role.auditor": ("auditor", "稽核員", "auditor"),
    "role.administrator": ("administrator", "管理員", "administrador"),
    # the administrator's console
    "adm.title": ("Accounts", "帳戶管理", "Contas"),
    "adm.need": (
        "Log in as an administrator.",
        "請以管理員身分登入。",
        "Inicie sessão como administrador.",
    ),
    "adm.note": (
        "No one person completes these alone: a staff account logs in once a second "
        "administrator approves it, and an account is disabled, enabled again or given a new "
        "password only when a second administrator approves the request. A player's account "
        "plays at once.",
        "以下事項不可由一人獨自完成：職員帳戶須經另一位管理員批准方可登入；停用、重新啟用帳戶或"
        "重設密碼，亦須由另一位管理員批准申請。玩家帳戶開立後即可使用。",
        "Nada disto é feito por uma só pessoa: uma conta de pessoal só entra depois de um "
        "segundo administrador a aprovar, e uma conta só é desactivada, reactivada ou recebe "
        "uma nova palavra-passe quando um segundo administrador aprova o pedido. A conta de "
        "um jogador joga logo.",
    ),
    "adm.pending": (
        "Waiting for a second administrator",
        "待另一位管理員批核",
        "À espera de um segundo administrador",
    ),
    "adm.decision_reason": (
        "Reason for your decision",
        "批核原因",
        "Motivo da sua decisão",
    ),
    "adm.none_pending": ("Nothing is waiting.", "沒有待批核的事項。", "Nada está à espera."),
    "adm.account": ("Account", "帳戶", "Conta"),
    "adm.asked_by": ("Asked by", "申請人", "Pedido por"),
    "adm.decide": ("Decision", "決定", "Decisão"),
    "adm.create": ("A new account", "開立新帳戶", "Uma conta nova"),
    "adm.role": ("Role", "職能", "Função"),
    "adm.password": ("Password", "密碼", "Palavra-passe"),
    "adm.new_password": ("New password", "新密碼", "Nova palavra-passe"),
    "adm.password_again": ("The password again", "再次輸入密碼", "A palavra-passe outra vez"),
    "adm.policy": (
        "At least 10 characters, not the account's name, not a common password.",
        "最少 10 個字元，不可與帳戶名稱相同，亦不可為常用密碼。",
        "Pelo menos 10 caracteres, não o nome da conta, não uma palavra-passe comum.",
    ),
    "adm.create_button": ("Create the account", "開立帳戶", "Criar a conta"),
    "adm.cancel": ("Cancel", "取消", "Cancelar"),
    "adm.accounts": ("Every account", "所有帳戶", "Todas as contas"),
    "adm.created_by": ("Created by", "開立人", "Criada por"),
    "adm.approved_by": ("Approved by", "批准人", "Aprovada por"),
    "adm.actions": ("Ask for", "申請", "Pedir"),
    "adm.what.new_staff": (
        "Approve a staff account",
        "批准職員帳戶",
        "Aprovar uma conta de pessoal",
    ),
    "adm.what.disable": ("Disable", "停用", "Desactivar"),
    "adm.what.enable": ("Enable again", "重新啟用", "Reactivar"),
    "adm.what.password": ("New password", "重設密碼", "Nova palavra-passe"),
    "adm.disabled": ("disabled", "已停用", "desactivada"),
    "adm.active": ("active", "使用中", "activa"),
    "adm.awaiting": (
        "waiting for a second administrator",
        "待另一位管理員批准",
        "à espera de um segundo administrador",
    ),
    "adm.need_reason": ("Give a reason.", "請填寫原因。", "Indique um motivo."),
    "adm.need_name": ("Give the account's name.", "請填寫帳戶名稱。", "Indique o nome da conta."),
    "adm.approved": ("approved", "已批准", "aprovado"),
    "adm.rejected": ("rejected", "已拒絕", "rejeitado"),
    "adm.waits_second": (
        "yours: a second person decides",
        "由你提出：須由另一人決定",
        "seu: decide uma segunda pessoa",
    ),
    "adm.asked_already": (
        "asked already: waiting for a second administrator",
        "已申請，待另一位管理員批核",
        "já pedido: à espera de um segundo administrador",
    ),
    "adm.asked": (
        "asked; a second administrator decides",
        "已提出申請，由另一位管理員決定",
        "pedido; decide um segundo administrador",
    ),
    "adm.short": (
        "The password has fewer than 10 characters.",
        "密碼少於 10 個字元。",
        "A palavra-passe tem menos de 10 caracteres.",
    ),
    "adm.mismatch": (
        "The two passwords differ.",
        "兩次輸入的密碼不同。",
        "As duas palavras-passe são diferentes.",
    ),
    "adm.same_as_name": (
        "The password is the account's name.",
        "密碼與帳戶名稱相同。",
        "A palavra-passe é o nome da conta.",
    ),
    "adm.created_active": (
        "created; it can log in now",
        "已開立，現在可以登入",
        "criada; já pode iniciar sessão",
    ),
    "adm.created_pending": (
        "created; it logs in once a second administrator approves it",
        "已開立，待另一位管理員批准後方可登入",
        "criada; entra depois de um segundo administrador a aprovar",
    ),
    # the supervisor's pit
    "pit.title": (
        "The pit: every table today",
        "賭區：今日所有賭枱",
        "A sala: todas as mesas hoje",
    ),
    "pit.phase": ("Now", "現時", "Agora"),
    "pit.live": ("live dealer", "真人荷官", "pagador ao vivo"),
    "pit.look": ("Look at table", "查看賭枱", "Ver a mesa"),
    "pit.looking": ("Table", "賭枱", "Mesa"),
    "pit.new_table": ("Open a new table", "開設新賭枱", "Abrir uma mesa nova"),
    "pit.table_id": ("Table name", "賭枱名稱", "Nome da mesa"),
    "pit.open_table": ("Open the table", "開設賭枱", "Abrir a mesa"),
    "pit.recall": (
        "This table's last rounds, step by step",
        "此賭枱最近的局（逐步）",
        "As últimas jogadas desta mesa, passo a passo",
    ),
    "pit.status_h": ("Pause, resume, close", "暫停、恢復、關閉", "Pausar, retomar, fechar"),
    "pit.pause": ("Pause", "暫停", "Pausar"),
    "pit.resume": ("Resume", "恢復", "Retomar"),
    "pit.close": ("Close", "關閉", "Fechar"),
    "pit.unlock": ("Unlock", "解鎖", "Desbloquear"),
    "pit.no_round": (
        "This table has no round to void yet.",
        "此賭枱尚未有可取消的局。",
        "Esta mesa ainda não tem jogada para anular.",
    ),
    "pit.nothing_to_correct": (
        "The table's last operation keyed in nothing a correction changes.",
        "此賭枱最後的操作沒有可更正的輸入結果。",
        "A última operação da mesa não introduziu nada que uma correcção mude.",
    ),
    "pit.void_round": (
        "Void round {round} of {table}",
        "取消 {table} 第 {round} 局",
        "Anular a jogada {round} da mesa {table}",
    ),
    "pit.ask_void": (
        "Ask to void round {round}",
        "申請取消第 {round} 局",
        "Pedir a anulação da jogada {round}",
    ),
    "pit.correct_round": (
        "Correct round {round}: {op}, entry #{seq}",
        "更正第 {round} 局：{op}（事件 #{seq}）",
        "Corrigir a jogada {round}: {op}, acontecimento #{seq}",
    ),
    "pit.round.settled": ("settled", "已結算", "liquidada"),
    "pit.round.voided": ("voided", "已取消", "anulada"),
    "pit.round.under_way": ("under way", "進行中", "em curso"),
    "pit.decision_reason": (
        "Reason for your decision",
        "批核原因",
        "Motivo da sua decisão",
    ),
    "pit.none_pending": (
        "No request waits for a decision.",
        "沒有待批核的申請。",
        "Nenhum pedido espera uma decisão.",
    ),
    "pit.evidence": ("Evidence", "證據", "Provas"),
    "pit.entries": ("entries", "事件", "acontecimentos"),
    "pit.asked_at": ("asked", "申請於", "pedido em"),
    "pit.at_entry": ("the table at", "當時賭枱於", "a mesa em"),
    "pit.what.void": ("void", "取消", "anulação"),
    "pit.what.correct": ("correction of", "更正", "correcção de"),
    "pit.state.pending": ("waiting", "待批核", "à espera"),
    "pit.state.approved": ("approved", "已批准", "aprovado"),
    "pit.state.rejected": ("rejected", "已拒絕", "rejeitado"),
    "pit.done.status": ("done", "已完成", "feito"),
    "pit.done.limits": (
        "new limits from the next round",
        "下一局起使用新限額",
        "novos limites a partir da próxima jogada",
    ),
    "pit.done.freeze": ("frozen", "已凍結", "congelada"),
    "pit.done.release": ("released", "已解除凍結", "libertada"),
    "pit.fills": ("The cage's fills", "帳房補充資金", "Reforços da caixa"),
    "pit.cage": ("The cage holds", "帳房現有", "A caixa tem"),
    "pit.fill": ("fill", "補充", "reforço"),
    "pit.ask_fill": ("Ask for a fill", "申請補充", "Pedir um reforço"),
    "pit.open_dispute": ("open", "未解決", "em aberto"),
    "pit.no_evidence": ("no evidence", "沒有證據", "sem provas"),
    "pit.resolved.void": ("voided", "已取消", "anulada"),
    "pit.resolved.correct": ("corrected", "已更正", "corrigida"),
    "pit.resolved.release": ("released", "已解除", "libertada"),
    # the dealer's forms and the table in words
    "dl.now": ("The table now", "賭枱現況", "A mesa agora"),
    "dl.raw_view": (
        "The table as the engine sends it (for auditors)",
        "引擎原始資料（供稽核）",
        "A mesa tal como o motor a envia (para auditores)",
    ),
    "dl.no_ops": (
        "Nothing waits for the dealer now.",
        "現時沒有待荷官處理的操作。",
        "Nada espera pelo pagador agora.",
    ),
    "dl.other_ops": (
        "The dealer's other operations",
        "荷官的其他操作",
        "As outras operações do pagador",
    ),
    "dl.nobody_waits": (
        "The rules wait for nobody now.",
        "規則現時沒有等待任何人。",
        "As regras não esperam por ninguém agora.",
    ),
    "dl.record": ("Record", "記錄", "Registar"),
    "dl.phase": ("Now: {phase}", "現時：{phase}", "Agora: {phase}"),
    "dl.shoe": (
        "Shoe {n}: {dealt} cards dealt, {left} left",
        "第 {n} 靴：已派 {dealt} 張，餘 {left} 張",
        "Sapato {n}: {dealt} cartas distribuídas, restam {left}",
    ),
    "dl.third_due": (
        "A third card is due to the {side}",
        "{side}須補第三張牌",
        "É devida uma terceira carta: {side}",
    ),
    "dl.chips": (
        "{who} has {amount} in chips",
        "{who} 有籌碼 {amount}",
        "{who} tem {amount} em fichas",
    ),
    "dl.bet": (
        "{who} bets {amount} on {bet}",
        "{who} 投注 {bet} {amount}",
        "{who} aposta {amount} em {bet}",
    ),
    "dl.place_bet": (
        "{who} bets {amount} on place {seat}",
        "{who} 於第 {seat} 門投注 {amount}",
        "{who} aposta {amount} no lugar {seat}",
    ),
    "dl.seat_chips": (
        "Place {seat}: {who}, {amount} in chips",
        "第 {seat} 門：{who}，籌碼 {amount}",
        "Lugar {seat}: {who}, {amount} em fichas",
    ),
    "dl.banker": (
        "The banker: {who} at place {seat}, the bank {amount}",
        "莊家：{who}（第 {seat} 門），本金 {amount}",
        "O banqueiro: {who} no lugar {seat}, a banca {amount}",
    ),
    "dl.point_on": (
        "The point is {point} (ON)",
        "點數 {point}（開）",
        "O ponto é {point} (LIGADO)",
    ),
    "dl.point_off": (
        "No point (OFF): a come-out roll",
        "未有點數（關）：出場擲骰",
        "Sem ponto (DESLIGADO): lançamento de saída",
    ),
    "dl.shooter": ("The shooter: {who}", "擲骰者：{who}", "O lançador: {who}"),
    "dl.last_roll": (
        "The last roll: {dice} = {total}",
        "上一擲：{dice} = {total}",
        "O último lançamento: {dice} = {total}",
    ),
    # the fields of an operation's arguments
    "fld.die": ("Die", "骰子", "Dado"),
    "fld.dice": ("dice", "骰子", "dados"),
    "fld.bad_die": ("A die shows 1 to 6.", "骰子點數為 1 至 6。", "Um dado mostra 1 a 6."),
    "fld.cocked_die": ("Cocked die", "斜骰", "Dado inclinado"),
    "fld.cocked": (
        "A die is cocked (shaken again)",
        "有斜骰（重擲）",
        "Um dado ficou inclinado (agita-se outra vez)",
    ),
    "fld.cards": (
        "Cards (separated by spaces)",
        "牌（以空格分隔）",
        "Cartas (separadas por espaços)",
    ),
    "fld.card": ("card", "牌", "carta"),
    "fld.tiles": (
        "Tiles (separated by spaces)",
        "牌（以空格分隔）",
        "Pedras (separadas por espaços)",
    ),
    "fld.hands": ("hands", "牌", "pedras"),
    "fld.first_card": ("The first card, turned up", "翻開的第一張牌", "A primeira carta, voltada"),
    "fld.need_card": ("Key in the card.", "請輸入牌。", "Introduza a carta."),
    "fld.optional": ("optional", "可留空", "opcional"),
    "fld.new_set": ("A new set of cards", "新一副牌", "Um conjunto novo de cartas"),
    "fld.count": ("How many", "數目", "Quantas"),
    "fld.from_end": ("Cut card from the end", "切牌卡距牌底", "Carta de corte a contar do fim"),
    "fld.seat": ("Place", "門", "Lugar"),
    "fld.side": ("Side", "方", "Lado"),
    "fld.bad_number": ("A whole number.", "請輸入整數。", "Um número inteiro."),
    "fld.reason": ("Reason", "原因", "Motivo"),
    "fld.description": ("What happened", "經過", "O que aconteceu"),
    # the player's history and account
    "hi.need": (
        "My history is a player's page; staff open /history?player=NAME.",
        "此頁供玩家使用；職員請開 /history?player=名稱。",
        "O histórico é uma página de jogador; o pessoal abre /history?player=NOME.",
    ),
    "hi.of": ("The history of {who}", "{who} 的紀錄", "O histórico de {who}"),
    "hi.account": ("My account", "我的帳戶", "A minha conta"),
    "hi.balance": ("Balance (wallet and chips)", "結餘（錢包及籌碼）", "Saldo (carteira e fichas)"),
    "hi.session": ("This session", "本節", "Esta sessão"),
    "hi.since": ("since", "自", "desde"),
    "hi.won": ("won", "贏", "ganhou"),
    "hi.lost": ("lost", "輸", "perdeu"),
    "hi.even": ("even", "不輸不贏", "empatado"),
    "hi.rounds": ("Every round I played", "我玩過的每一局", "Todas as jogadas que joguei"),
    "hi.count": ("Rounds", "局數", "Jogadas"),
    "hi.older": ("Older rounds", "較早的局", "Jogadas anteriores"),
    "hi.my_bets": ("My bets", "我的投注", "As minhas apostas"),
    "hi.spot": ("Spot", "位置", "Posição"),
    "hi.paid": ("Paid back", "派回", "Pago"),
    "hi.place_bet": ("Bet on the place", "門上投注", "Aposta no lugar"),
    "hi.winner": ("The hand goes to", "此手牌勝方", "A mão vai para"),
    "hi.yours": ("yours", "你的", "sua"),
    "hi.status.settled": ("settled", "已結算", "liquidada"),
    "hi.status.voided": (
        "voided: the stakes refunded",
        "已取消：退回投注",
        "anulada: apostas devolvidas",
    ),
    "hi.status.under_way": ("under way", "進行中", "em curso"),
    "hi.export": (
        "Save this round's journal to verify it",
        "下載此局紀錄以作核實",
        "Guardar o diário desta jogada para o verificar",
    ),
    "hi.saved": ("Saved", "已儲存", "Guardado"),
    "hi.run": ("Check it:", "核實：", "Verifique-o:"),
    "hi.entries": ("this round is entries", "此局為事件", "esta jogada são os acontecimentos"),
    "hi.verify_h": ("How to verify a round", "如何核實一局", "Como verificar uma jogada"),
    "hi.verify_note": (
        "Each round's button saves the table's journal as you may see it: every entry of its "
        "hash chain, the others' private ones as their hashes only, each shoe, woodpile or "
        "shooter's seed once revealed. Check it on your own computer (Python 3.11):",
        "每局的按鈕會儲存你可查看的賭枱紀錄：雜湊鏈的每一項，他人的私密項目只顯示雜湊值，"
        "每靴、每疊牌或每位擲骰者的種子在公開後亦包括在內。請在你的電腦上核實（Python 3.11）：",
        "O botão de cada jogada guarda o diário da mesa tal como o pode ver: cada entrada da "
        "sua cadeia de hashes, as privadas dos outros só pelo hash, a semente de cada sapato, "
        "pilha ou lançador depois de revelada. Verifique-o no seu computador (Python 3.11):",
    ),
    "hi.file": ("FILE", "檔案", "FICHEIRO"),
    "hi.head": ("HEAD", "鏈頭", "CABEÇA"),
    "hi.verify_more": (
        "ok: the record is intact up to that head and every revealed seed is the one "
        "committed before the bets; a seed still secret (the shoe in play) is listed as such — "
        "save the journal again once it is revealed. Anything else fails with one line: keep "
        "the file and report it (DICJ in Macau).",
        "ok：紀錄至該鏈頭完整無缺，每個已公開的種子均為投注前已封存的種子；尚未公開的種子（使用中的牌靴）"
        "會另行列出——公開後請再次下載。其他結果均以一行顯示錯誤：請保留檔案並向博彩監察協調局舉報。",
        "ok: o registo está intacto até essa cabeça e cada semente revelada é a selada antes "
        "das apostas; uma semente ainda secreta (o sapato em jogo) é indicada como tal — "
        "guarde o diário outra vez depois de revelada. Qualquer outro resultado falha numa "
        "linha: guarde o ficheiro e comunique-o (DICJ em Macau).",
    ),
    "hres.win": ("won", "贏", "ganhou"),
    "hres.lose": ("lost", "輸", "perdeu"),
    "hres.push": ("push: stake back", "和：退回投注", "empate: aposta devolvida"),
    "hres.voided": ("refunded", "已退回", "devolvida"),
    "hres.in_play": ("in play", "進行中", "em jogo"),
    "hres.stands": ("stays up", "繼續有效", "continua"),
    "hres.bank": ("the bank's share", "莊家所得", "a parte da banca"),
}

#: keys STAFF_UI would take over from UI: none (tests/web/test_staff_words.py)
CLASHES: Final = sorted(STAFF_UI.keys() & UI.keys())
UI.update(STAFF_UI)
