"""The words of the pages, in English and traditional Chinese.

Bet and tile names come from the regulations as the engines and the ``tiles`` package
write them: baccarat 閒 / 莊 / 和 (BA-6, BA-13), craps as Portaria 97/85/M writes each
article (過關, 不過關, 來的機率, 不來的機率, 倍, 難, 大七點, 十一點, 任意骰, 大六點 …),
tiles from Table I (T-1: 天, 地, 人, 鵝 …) and the hand names of Tables II (天九王, 至尊 …).
"""

from __future__ import annotations

from typing import Final

from macau_tables.tiles.tile import TABLE_I

LANGS: Final = ("en", "zh")
DEFAULT_LANG: Final = "en"

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

# Baccarat (BA-6, BA-13): 閒 the Player, 莊 the Banker, 和 a tie.
BACCARAT: Final[dict[str, tuple[str, str]]] = {
    "player": ("Player", "閒"),
    "banker": ("Banker", "莊"),
    "tie": ("Tie", "和"),
    "player_pair": ("Player pair", "閒對"),
    "banker_pair": ("Banker pair", "莊對"),
}

GAMES: Final[dict[str, tuple[str, str]]] = {
    "baccarat": ("Baccarat", "百家樂"),
    "craps": ("Craps", "花旗骰"),
    "paigow": ("Pai Gow", "牌九"),
    "taiwan": ("Taiwan Pai Kao", "台灣牌九"),
}

# The interface's own words (not game terms).
UI: Final[dict[str, tuple[str, str]]] = {
    "site": ("Macau tables", "澳門賭枱"),
    # the dealer's console at a live table
    "dealer_console": ("Dealer's console", "荷官控制台"),
    "dealer_mode": ("Dealing", "派牌方式"),
    "live_table": ("live: the dealer keys in the physical table", "真人：荷官輸入實物結果"),
    "auto_table": ("auto-dealt by the server", "伺服器自動派牌"),
    "last_event": ("Last event", "最後事件"),
    "dealer_ops": ("The dealer's operations now", "荷官現時的操作"),
    "key_in": ("Key in what the table shows", "輸入枱面結果"),
    "keyin_dice": ("The dice as they lie", "骰子點數"),
    "keyin_deal": ("The four cards as dealt", "所派四張牌"),
    "keyin_third": ("The third card", "第三張牌"),
    # BA-7.1: the four cards in dealing order, Player first
    "keyin_p1": ("Player's first card", "閒第一張"),
    "keyin_b1": ("Banker's first card", "莊第一張"),
    "keyin_p2": ("Player's second card", "閒第二張"),
    "keyin_b2": ("Banker's second card", "莊第二張"),
    "keyin_tiles": ("The banker's dice and the hands as dealt", "莊家骰子及所派牌"),
    "keyin_hands": ("Hands (seat: four tiles)", "牌（門：四隻牌）"),
    "card": ("Card", "牌"),
    "op_throw_dice": ("Record the throw", "記錄擲骰"),
    "op_deal": ("Record the deal", "記錄派牌"),
    "op_draw": ("Record the third card", "記錄第三張牌"),
    "op_shake": ("Record the dice and the deal", "記錄骰子及派牌"),
    "other_op": ("Another operation", "其他操作"),
    "args": ("Arguments (JSON)", "參數（JSON）"),
    "bad_json": ("The arguments are not JSON", "參數不是 JSON"),
    "waiting": ("Players the rules wait for", "規則等待的玩家"),
    "waiting_note": (
        "At a live table nobody is timed out automatically; the dealer may apply the "
        "rules' default.",
        "真人賭枱不會自動逾時；荷官可按規則代為執行預設操作。",
    ),
    "apply_default": ("Apply the default", "執行預設"),
    "need_dealer": ("Log in as a dealer or a supervisor.", "請以荷官或主管身分登入。"),
    "need_recall": (
        "Recall is for players (their own rounds) and for the floor's staff.",
        "回顧供玩家（自己的局）及樓面人員使用。",
    ),
    "lobby": ("Lobby", "大廳"),
    "login": ("Log in", "登入"),
    "logout": ("Log out", "登出"),
    "username": ("User name", "用戶名稱"),
    "password": ("Password", "密碼"),
    "cashier": ("Cashier", "帳房"),
    "history": ("My history", "我的紀錄"),
    "par": ("PAR sheets", "PAR 表"),
    "language": ("Language", "語言"),
    "switch_lang": ("中文", "English"),
    "table": ("Table", "賭枱"),
    "game": ("Game", "遊戲"),
    "limits": ("Limits", "投注限額"),
    "seats": ("Seats", "座位"),
    "status": ("Status", "狀態"),
    "countdown": ("Countdown", "倒數"),
    "join": ("Join", "入座"),
    "leave": ("Leave", "離座"),
    "seat": ("Seat", "座位"),
    "balance": ("Balance", "結餘"),
    "stack": ("Chips at the table", "枱上籌碼"),
    "bets": ("Bets", "投注"),
    "chips": ("Chips", "籌碼"),
    "confirm": ("Confirm", "確認"),
    "rebet": ("Rebet", "重複投注"),
    "clear": ("Clear", "清除"),
    "result": ("Result", "結果"),
    "deposit": ("Deposit", "存款"),
    "withdraw": ("Withdraw", "提款"),
    "amount": ("Amount", "金額"),
    "submit": ("Submit", "提交"),
    "roads": ("Road maps", "路紙"),
    "bead_plate": ("Bead Plate", "珠盤路"),
    "big_road": ("Big Road", "大路"),
    "big_eye_boy": ("Big Eye Boy", "大眼仔"),
    "small_road": ("Small Road", "小路"),
    "cockroach_pig": ("Cockroach Pig", "曱甴路"),
    "ask_banker": ("Ask Banker", "莊問路"),
    "ask_player": ("Ask Player", "閒問路"),
    "shoe_stats": ("Shoe statistics", "牌靴統計"),
    "cards_left": ("Cards left", "餘牌"),
    "squeeze": ("Squeeze", "咪牌"),
    "reveal": ("Turn over", "開牌"),
    "dice": ("Dice", "骰子"),
    "point": ("Point", "點數"),
    "off": ("Off", "關"),
    "on": ("On", "開"),
    "working": ("Working", "有效"),
    "shooter": ("Shooter", "擲骰者"),
    "throw": ("Throw", "擲骰"),
    "front": ("Front", "頭"),
    "back": ("Back", "尾"),
    "set_hand": ("Set my tiles", "配牌"),
    "hint": ("Hint", "提示"),
    "banker_seat": ("Banker", "莊家"),
    "take_bank": ("Take the bank", "做莊"),
    "decline_bank": ("Decline the bank", "不做莊"),
    "co_bank": ("Co-bank", "合莊"),
    "rearrange": ("Rearrange", "重排"),
    "settlement": ("Settlement", "結算"),
    "bank_balance": ("Bank's running balance", "莊家結餘"),
    "forced": ("Forced setting", "強制配牌"),
    "count": ("Count", "數位"),
    "places": ("Places", "門"),
    "events": ("What happened", "牌局紀錄"),
    "no_tables": ("No table is open.", "沒有開放的賭枱。"),
    "need_login": ("Log in to play.", "請先登入。"),
    "connecting": ("Connecting…", "連線中…"),
    "disconnected": ("Disconnected — reconnecting…", "連線中斷，重新連線中…"),
    "rule_set": ("Rule set", "規則"),
    "bet": ("Bet", "投注"),
    "rule": ("Rule", "規則編號"),
    "pays": ("Pays", "賠率"),
    "p_win": ("P(win)", "贏的機率"),
    "p_lose": ("P(lose)", "輸的機率"),
    "p_push": ("P(push)", "和的機率"),
    "house_edge": ("House edge", "莊家優勢"),
    "std_dev": ("Std dev", "標準差"),
    "more": ("More", "其他"),
    "show": ("Show", "顯示"),
    "setting": ("Setting", "配法"),
    "ev": ("EV per unit", "每單位期望值"),
    "tiles": ("Tiles", "牌"),
    "hand_name": ("Hand", "牌名"),
    "rank": ("Rank", "排名"),
    "when": ("When", "時間"),
    "what": ("What", "事項"),
    "net": ("Net", "淨額"),
    "recall": ("Recall", "回顧"),
    "my_rounds": ("My last rounds", "我最近的局"),
    "table_rounds": ("A table's last rounds", "賭枱最近的局"),
    "steps": ("Steps", "步驟"),
    "staked": ("Staked", "投注"),
    "returned": ("Returned", "退回及派彩"),
    "time": ("Time", "時間"),
    "actor": ("Who", "執行者"),
    "view_after": ("The table after this step", "此步驟後的賭枱"),
    "no_rounds": ("No rounds yet.", "尚未有局。"),
    "player": ("Player", "閒家"),
    "dealer": ("Dealer", "荷官"),
    "empty": ("empty", "空"),
    "main": ("Main content", "主要內容"),
    "skip": ("Skip to the content", "跳至內容"),
    "cashier_note": (
        "Deposit into or withdraw from a player's wallet (through the cage).",
        "存入或提取玩家錢包的款項（經帳房）。",
    ),
    # meters and the gaming-day close
    "meters": ("Meters", "營業表"),
    "meters_note": (
        "Per table and gaming day: drop (chips bought), win, hold = win ÷ drop, the "
        "theoretical win from the exact PAR of each table's rules, and the check that the "
        "journal and the ledger agree. Supervisors and auditors only.",
        "每張賭枱每個博彩日：投入（購買籌碼）、贏額、贏率 = 贏額 ÷ 投入、按各枱規則精確 PAR "
        "計算的理論贏額，以及帳目與紀錄是否相符。僅限主管及稽核員。",
    ),
    "need_staff": ("Log in as a supervisor or an auditor.", "請以主管或稽核員登入。"),
    "gaming_day": ("Gaming day", "博彩日"),
    "drop": ("Drop", "投入"),
    "cash_out": ("Cash-out", "兌出"),
    "win": ("Win", "贏額"),
    "commission": ("Commission", "佣金"),
    "handle": ("Handle", "投注額"),
    "hold": ("Hold", "贏率"),
    "theo_win": ("Theoretical win", "理論贏額"),
    "theo_hold": ("Theoretical hold", "理論贏率"),
    "reconciled": ("Journal = ledger", "紀錄 = 帳目"),
    "mismatch": ("MISMATCH", "不符"),
    "unavailable": ("unavailable", "不適用"),
    "total": ("Total", "合計"),
    "close_day": ("Close the gaming day", "結束博彩日"),
    "closed_by": ("Closed by", "結帳人"),
    "live_figures": ("Live figures (not closed)", "即時數字（未結帳）"),
    "actions": ("Your turn", "輪到你"),
    "join_table": ("Join the table", "加入賭枱"),
    "raw_journal": ("The journal as recorded (for auditors)", "原始紀錄（供稽核）"),
    "bad_amount": (
        "Enter an amount in MOP, such as 100 or 25.50.",
        "請輸入澳門元金額，例如 100 或 25.50。",
    ),
    "your_wallet": ("your wallet", "你的錢包"),
    "my_money": ("My wallet and chips", "我的錢包及籌碼"),
    "your_chips": ("your chips", "你的籌碼"),
    "refused": ("The server refused the request.", "伺服器拒絕了這個要求。"),
    "your_bet": ("Your bet", "你的投注"),
    "no_limits": ("no limits", "不設限額"),
    "log_in_to_play": ("Log in to play", "登入後入座"),
    "who.house": ("the house", "賭場"),
    "who.dealer": ("the dealer", "荷官"),
    "who.system": ("the table", "賭枱"),
    "ph.shuffle": ("shuffling", "洗牌"),
    "ph.cut": ("the cut", "切牌"),
    "ph.burn": ("the burn", "燒牌"),
    "ph.demonstration": ("demonstration hands", "示範牌局"),
    "ph.betting": ("betting", "投注中"),
    "ph.dealing": ("dealing", "派牌中"),
    "ph.come-out": ("come-out roll", "出場擲骰"),
    "ph.point": ("point", "點數階段"),
    "ph.bank": ("the bank", "做莊"),
    "ph.setting": ("setting the tiles", "配牌中"),
    "ph.settle": ("settling", "結算中"),
    "ph.reveal": ("turning over", "開牌"),
    "amount_mop": ("Amount (MOP)", "金額（澳門元）"),
    "st.open": ("open", "開放"),
    "st.paused": ("paused", "暫停"),
    "st.closed": ("closed", "關閉"),
    "st.locked": ("locked", "鎖定"),
    "st.frozen": ("frozen", "凍結"),
    "cd.in": ("{op} in {s} s", "{s} 秒後{op}"),
    "cd.due": ("{op} — waiting", "等待{op}"),
    "cd.betting": ("Bets close in {s} s", "{s} 秒後停止投注"),
    "cd.open": ("Bets are open", "現正接受投注"),
    "wallet": ("Wallet", "錢包"),
    "round": ("Round", "局"),
    "standing": ("Standing", "站立投注"),
    "reset_note": (
        "TW-6b: a player's tiles must be set with the highest back they allow; the dealer "
        "re-set them to the forced setting",
        "TW-6b：閒家須以最大的尾配牌；荷官已按強制配法重新配牌",
    ),
    # the supervisor's page
    "supervisor": ("Supervisor", "主管"),
    "sv.need": ("Log in as a supervisor (an auditor reads).", "請以主管身分登入（稽核員可閱覽）。"),
    "sv.requests": ("Requests to decide", "待批核的申請"),
    "sv.audit": ("Audit log", "稽核紀錄"),
    "sv.disputes": ("Disputes", "爭議"),
    "sv.act": ("Act at a table", "賭枱操作"),
    "sv.void": ("Void the last round", "取消最後一局"),
    "sv.correct": ("Correct a keyed-in result", "更正輸入的結果"),
    "sv.limits": ("Limits from the next round", "下一局起的投注限額"),
    "sv.freeze": ("Freeze a disputed round", "凍結有爭議的一局"),
    "sv.release": ("Release the table", "解除凍結"),
    "sv.ask": ("Request", "提出申請"),
    "sv.approve": ("Approve", "批准"),
    "sv.reject": ("Reject", "拒絕"),
    "sv.reason": ("Reason", "原因"),
    "sv.of_seq": ("Event number (seq) keyed in", "輸入事件編號"),
    "sv.args": ("Corrected values (JSON)", "更正值（JSON）"),
    "sv.min": ("Minimum bet (MOP)", "最低投注（澳門元）"),
    "sv.max": ("Maximum bet (MOP)", "最高投注（澳門元）"),
    "sv.bac_limits": (
        "Baccarat: the other bets (blank: unchanged; min and max above are Player and Banker)",
        "百家樂：其他投注（留空即不變；上列最低及最高為閒、莊）",
    ),
    "sv.lim_tie": ("Tie", "和"),
    "sv.lim_banker_pair": ("Banker Pair", "莊對"),
    "sv.lim_player_pair": ("Player Pair", "閒對"),
    "sv.differential": (
        "Banker/Player difference limit (MOP, blank: unchanged)",
        "莊閒差額上限（澳門元，留空即不變）",
    ),
    "sv.note": ("What happened", "經過"),
    "sv.evidence": (
        "Evidence (video / photo ids, comma separated)",
        "證據（錄影／相片編號，以逗號分隔）",
    ),
    "sv.seqs": ("Events concerned (seqs, comma separated)", "相關事件（編號，以逗號分隔）"),
    "sv.state": ("State", "狀態"),
    "sv.when": ("When", "時間"),
    "sv.who": ("Who", "人員"),
    "sv.what": ("What", "事項"),
    "sv.id": ("No.", "編號"),
}


# Every operation the engines accept (games/*.py, the server's test double), as buttons and
# the countdown name them.
OPS: Final[dict[str, tuple[str, str]]] = {
    "join": ("Join", "入座"),
    "sit": ("Sit", "入座"),
    "leave": ("Leave", "離座"),
    "buy_in": ("Buy chips", "買籌碼"),
    "buy_chips": ("Buy chips", "買籌碼"),
    "cash_out": ("Cash out", "兌換籌碼"),
    "bet": ("Bet", "投注"),
    "place_bet": ("Bet", "投注"),
    "change_bet": ("Change the bet", "更改投注"),
    "withdraw_bet": ("Withdraw the bet", "收回投注"),
    "withdraw": ("Withdraw the bet", "收回投注"),
    "take_down": ("Take down", "收回投注"),
    "increase_bet": ("Increase", "加注"),
    "throw": ("Throw", "擲骰"),
    "pass_dice": ("Pass the dice", "讓出骰子"),
    "reveal": ("Turn over", "開牌"),
    "squeeze": ("Squeeze", "咪牌"),
    "cut": ("Cut the cards", "切牌"),
    "open_bank": ("Take the bank", "做莊"),
    "decline_bank": ("Decline the bank", "不做莊"),
    "join_bank": ("Co-bank", "合莊"),
    "house_banks": ("The house banks", "由莊家（賭場）做莊"),
    "rearrange": ("Rearrange", "重排"),
    "set_tiles": ("Set my tiles", "配牌"),
    "shuffle": ("Shuffle", "洗牌"),
    "load_shoe": ("Load the shoe", "裝牌入靴"),
    "open_shoe": ("Open the shoe", "開新牌靴"),
    "end_shoe": ("End the shoe", "結束牌靴"),
    "burn": ("Burn", "燒牌"),
    "deal": ("Deal", "派牌"),
    "draw": ("Draw a third card", "補第三張牌"),
    "expose_card": ("Expose a card", "翻開一張牌"),
    "report_exposed": ("Report an exposed tile", "報告翻開的牌"),
    "correct_error": ("Correct a dealing error", "更正派牌錯誤"),
    "void_hand": ("Void the hand", "取消此手牌"),
    "void_throw": ("Void the throw", "取消此次擲骰"),
    "void_round": ("Void the round", "取消此局"),
    "correct_round": ("Correct the round", "更正此局"),
    "change_limits": ("Change the limits", "更改投注限額"),
    "throw_dice": ("Throw the dice", "擲骰"),
    "build_woodpile": ("Build the woodpile", "砌牌"),
    "shake": ("Shake the dice", "搖骰"),
    "settle": ("Settle", "結算"),
    "time_out": ("Time out", "逾時"),
    "checkpoint": ("Checkpoint", "檢查點"),
}

# What happened, as the croupier says it (the live tables' log): by the event kind's last
# part; "[ … {x} …]" is said only when the event has x (live.js, narrate).
EVENTS: Final[dict[str, tuple[str, str]]] = {
    "player_joined": (
        "{who} joins the table[ at seat {seat}][ with {amount}]",
        "{who} 入座[（{seat} 號位）][，買入 {amount}]",
    ),
    "joined": ("{who} joins the table[ with {amount}]", "{who} 入座[，買入 {amount}]"),
    "seated": ("{who} takes seat {seat}", "{who} 坐在 {seat} 號位"),
    "player_sat": ("{who} sits at place {seat}", "{who} 坐在第 {seat} 門"),
    "player_left": ("{who} leaves the table", "{who} 離座"),
    "left": ("{who} leaves the table", "{who} 離座"),
    "chips_bought": ("{who} buys {amount} in chips", "{who} 買入籌碼 {amount}"),
    "chips_cashed": ("{who} cashes out[ {amount}]", "{who} 兌換籌碼[ {amount}]"),
    "bet_placed": (
        "{who} bets {amount}[ on {bet}][ on place {seat}]",
        "{who} 投注 {amount}[（{bet}）][（第 {seat} 門）]",
    ),
    "bet_changed": ("{who} changes a bet[ on {bet}]", "{who} 更改投注[（{bet}）]"),
    "bet_withdrawn": ("{who} takes a bet back", "{who} 收回投注"),
    "bet_taken_down": ("{who} takes down a bet[ on {bet}]", "{who} 收回投注[（{bet}）]"),
    "bet_increased": ("{who} adds {amount}[ to {bet}]", "{who} 加注 {amount}[（{bet}）]"),
    "shoe_shuffled": ("The cards are shuffled", "洗牌"),
    "shoe_loaded": ("The shoe is loaded", "裝牌入靴"),
    "shoe_opened": ("A new shoe", "開新牌靴"),
    "shoe_ended": ("The shoe is finished", "牌靴完結"),
    "cut_card_placed": ("[{who} cuts: ]the cut card is placed", "[{who} 切牌：]放入切牌卡"),
    "cards_burned": ("The dealer burns cards", "荷官燒牌"),
    "cards_dealt": ("The dealer deals the cards", "荷官派牌"),
    "cards_keyed": ("The dealer keys in the cards", "荷官輸入所派的牌"),
    "third_card_dealt": ("A third card is drawn", "補第三張牌"),
    "cards_revealed": ("[{who} turns over: ]the cards are shown", "[{who} 開牌：]牌已翻開"),
    "card_exposed": ("A card was exposed", "有牌被翻開"),
    "card_dealt": ("A card is dealt[ to {who}]", "派牌[給 {who}]"),
    "card_revealed": ("[{who}: ]the card is turned over", "[{who}：]翻牌"),
    "house_card": ("The house's card is dealt", "莊家派牌"),
    "hand_settled": ("The hand is settled", "此手牌已結算"),
    "round_settled": ("The round is settled", "此局已結算"),
    "roll_settled": ("The bets on this roll are settled", "此擲已結算"),
    "hand_voided": ("The hand is voided", "此手牌已取消"),
    "throw_voided": ("The throw is voided", "此次擲骰已取消"),
    "round_voided": ("The round is voided", "此局已取消"),
    "round_corrected": ("The round is corrected", "此局已更正"),
    "dealing_error_corrected": ("A dealing error is corrected", "派牌錯誤已更正"),
    "dice_thrown": ("{who} throws[ {dice}][: {total}]", "{who} 擲骰[ {dice}][：{total} 點]"),
    "dice_passed": ("The dice pass to {who}", "骰子交給 {who}"),
    "dice_shaken": ("The dice are shaken[: {dice}]", "搖骰[：{dice}]"),
    "limits_changed": ("New limits from the next round", "下一局起使用新限額"),
    "seed_committed": (
        "The shuffle is sealed (its seal is in the journal)",
        "洗牌已封存（封存碼見原始紀錄）",
    ),
    "seed_revealed": (
        "The shuffle's seal is opened (the seed is in the journal)",
        "洗牌封存已公開（種子見原始紀錄）",
    ),
    "timed_out": ("Time is up[ for {who}][: {op}]", "[{who} ]時間到[：{op}]"),
    "opened": ("The table opens", "賭枱開放"),
    "checkpoint": ("The table's checkpoint", "賭枱檢查點"),
    "bank_declined": ("{who} declines the bank", "{who} 不做莊"),
    "bank_opened": (
        "{who} takes the bank[ at place {seat}][ with {amount}]",
        "{who} 做莊[（第 {seat} 門）][，本金 {amount}]",
    ),
    "cobank_joined": ("{who} co-banks[ {amount}]", "{who} 合莊[ {amount}]"),
    "stacks_rearranged": ("The stacks are rearranged", "牌疊已重排"),
    "tiles_dealt": ("The tiles are dealt", "派牌"),
    "hands_keyed": ("The dealer keys in the hands", "荷官輸入所派的牌"),
    "tiles_exposed": ("Tiles are turned up", "翻牌"),
    "tiles_set": ("{who} sets the tiles[ at place {seat}]", "{who} 配牌[（第 {seat} 門）]"),
    "woodpile_built": ("The tiles are shuffled into a woodpile", "洗牌砌牌"),
    "woodpile_ended": ("The woodpile is finished", "牌疊用完"),
}


def lang_of(value: str | None) -> str:
    """A supported language code (``en`` or ``zh``), the default for anything else."""
    return value if value in LANGS else DEFAULT_LANG


def t(key: str, lang: str) -> str:
    """The interface word ``key`` in ``lang`` (the key itself if unknown: visible, not fatal)."""
    if key.startswith("op.") and key[3:] in OPS:
        en, zh = OPS[key[3:]]
        return zh if lang == "zh" else en
    en, zh = UI.get(key, (key, key))
    return zh if lang == "zh" else en


def game_name(game: str, lang: str) -> str:
    en, zh = GAMES.get(game, (game, game))
    return zh if lang == "zh" else en


def strings(lang: str) -> dict[str, str]:
    """Every word a page's script needs, in ``lang`` (embedded in the page as JSON)."""
    out = {k: (zh if lang == "zh" else en) for k, (en, zh) in UI.items()}
    for k, (en, zh) in BACCARAT.items():
        out[f"ba.{k}"] = zh if lang == "zh" else en
    from macau_tables.games.craps import BET_KINDS

    for name, bet in BET_KINDS.items():
        out[f"cr.{name}"] = CRAPS_ZH.get(name, bet.label) if lang == "zh" else bet.label
    for tile in TABLE_I:
        for lo, hi in tile.pips:
            out[f"tile.{lo}-{hi}"] = tile.chinese if lang == "zh" else tile.english
    for g, (en, zh) in GAMES.items():
        out[f"game.{g}"] = zh if lang == "zh" else en
    for op, (en, zh) in OPS.items():
        out[f"op.{op}"] = zh if lang == "zh" else en
    for kind, (en, zh) in EVENTS.items():
        out[f"ev.{kind}"] = zh if lang == "zh" else en
    return out


def par_bet_name(game: str, name: str, lang: str) -> str:
    """A PAR sheet's bet name in ``lang``: in Chinese the regulation's name, the English kept
    beside it where the sheet adds words (``過關額外投注 · Pass Line odds on 4``)."""
    if lang != "zh":
        return name
    if game == "baccarat" and name in BACCARAT:
        return BACCARAT[name][1]
    if game == "craps":
        from macau_tables.games.craps import BET_KINDS

        labels = sorted(((k.label, n) for n, k in BET_KINDS.items()), key=lambda x: -len(x[0]))
        for label, kind in labels:
            if name == label:
                return CRAPS_ZH.get(kind, label)
            if name.startswith(label + " "):
                return f"{CRAPS_ZH.get(kind, label)} · {name}"
    return name
