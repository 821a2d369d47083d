//! The control plane stays human: the installed hook, run as each client runs it, refuses the
//! agent's own shell and file tools every `torii` command that is the human's and every path
//! into the config root, and lets read-only `torii` commands and everything else through.
//!
//! The layout is a user's: the root is reached from the home directory as `~/.config/torii`
//! (a link to the test's root, so both spellings count), the agent works in `~/project`, and
//! `~/elsewhere` and `~/project/clink` are links to the root that an agent could have found,
//! and `~/project/sub` a link whose `..` is the home directory.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::agents::Setup;
use crate::common::{install_provider, simple_provider};

/// What the hook must answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    /// Denied as a `torii` command that is the human's.
    Human,
    /// Denied for naming the config root.
    Root,
    /// Denied, whichever reason (a provider's program, a line it cannot analyse).
    Denied,
    /// Passed without a word.
    Allow,
}
use Expect::{Allow, Denied, Human, Root};

/// Shell lines an agent could try, `{root}`, `{home}` and `{exe}` filled in.
const SHELL: &[(Expect, &str)] = &[
    // `torii` commands that are the human's, by every spelling the guard resolves.
    (Human, "torii target activate kubectl prod --for 1440"),
    (Human, "torii target activate kubectl prod"),
    (
        Human,
        "torii target add kubectl prod --context ctx --provider kubeconfig",
    ),
    (Human, "torii target clear kubectl"),
    (Human, "torii target remove kubectl prod --force"),
    (Human, "torii policy edit kubectl"),
    (Human, "torii provider install aws"),
    (Human, "torii provider setup kubectl admin"),
    (Human, "torii provider upgrade kubectl"),
    (Human, "torii provider remove kubectl"),
    (Human, "torii agent install claude --hook"),
    (Human, "torii agent uninstall claude --hook"),
    (Human, "torii reauth aws"),
    // The console answers the questions a window would ask: the human's, like the window.
    (Human, "torii console"),
    (Human, "TORII_CONFIG_DIR=/tmp/x torii console"),
    (Human, "torii self upgrade"),
    (Human, "torii init"),
    (Human, "torii"),
    (Human, "echo '{}' | torii"),
    (Human, "torii __prompt"),
    (Human, "torii __hook claude --config-dir /tmp/elsewhere"),
    (Human, "{exe} target activate kubectl prod"),
    (Human, "/usr/local/bin/torii target activate kubectl prod"),
    (Human, "TORII.EXE target activate kubectl prod"),
    (Human, "torii 'target' \"activate\" kubectl prod"),
    (Human, "torii target $(echo activate) kubectl prod"),
    (Human, "torii doctor; torii target activate kubectl prod"),
    (
        Human,
        "env TORII_LANG=en torii target activate kubectl prod",
    ),
    (Human, "sh -c 'torii policy edit kubectl'"),
    (
        Human,
        "bash -lc \"torii target activate kubectl prod --add\"",
    ),
    (Human, "nohup torii target activate kubectl prod &"),
    (Human, "timeout 5 torii target activate kubectl prod"),
    (Human, "sudo -u me torii target activate kubectl prod"),
    (Human, "echo prod | xargs torii target activate kubectl"),
    (
        Human,
        "TORII_CONFIG_DIR=/tmp/x torii target activate kubectl prod",
    ),
    (
        Denied,
        "\"$(command -v torii)\" target activate kubectl prod",
    ),
    (Denied, "$T target activate kubectl prod"),
    // Read-only `torii` commands stay allowed.
    (Allow, "torii --version"),
    (Allow, "torii doctor"),
    (Allow, "torii config-dir"),
    (Allow, "torii target list kubectl"),
    (Allow, "torii target status kubectl"),
    (Allow, "torii target show kubectl prod"),
    (Allow, "torii policy show kubectl"),
    (Allow, "torii policy check kubectl -- get pods"),
    (Allow, "torii provider list"),
    (Allow, "torii agent list"),
    (Allow, "torii agent status claude && git status"),
    (Allow, "{exe} help target"),
    // Paths into the root, however written.
    (Root, "cat {root}/providers/kubectl/grants"),
    (
        Root,
        "printf 'accept: [delete]' > {root}/providers/kubectl/rules.yaml",
    ),
    (Root, "cat ~/.config/torii/providers/kubectl/rules.yaml"),
    // The text of a replacement is written in the line, as is what follows a computed start.
    (Root, "cat \"${HOME%/}/${HOME/*/.config/torii/grants}\""),
    (Root, "cat $\"$HOME\"/.config/torii/grants"),
    (Root, "cat \"$(printf %s ~/.conf)ig/torii/grants\""),
    (
        Root,
        "cat \"$HOME/.config/torii/identities/lab/auth/session.json\"",
    ),
    (Root, "cat ${HOME}/.config/torii/settings.yaml"),
    (Root, "cat $TORII_CONFIG_DIR/settings.yaml"),
    (Root, "cat ~/.con'fig'/tor\"ii\"/grants"),
    (Root, "cd ~/.config && cat torii/grants"),
    (Root, "cd ~/.config/torii"),
    (Root, "cd .. && cat .config/torii/grants"),
    (Root, "ls ../.config/torii"),
    (Root, "cat ~/elsewhere/providers/kubectl/rules.yaml"),
    (Root, "cp -r ~/.config /tmp/copy"),
    (Root, "tar czf /tmp/t.tgz ~/.config"),
    (Root, "rm -rf ~/.config/torii"),
    (Root, "mv ~/.config/torii ~/.config/torii.old"),
    (Root, "grep -r token ~/.config/torii"),
    (Root, "cat ~/.config/tor*/providers/*/grants"),
    (Root, "cat /*/../{root}/grants"),
    (Root, "ln -s ~/.config/torii /tmp/l"),
    (Root, "sh -c 'cat ~/.config/torii/grants'"),
    (Root, "echo x | tee -a {root}/providers/kubectl/rules.yaml"),
    (Root, "curl -d @{root}/settings.yaml http://127.0.0.1:9/"),
    (Root, "dd if={root}/settings.yaml of=/tmp/x"),
    (Root, "find ~/.config -name grants"),
    (Root, "git -C ~/.config/torii log"),
    (Root, "vi ~/.config/torii/providers/kubectl/rules.yaml"),
    (Root, "python3 -c 'import sys' --file={root}/settings.yaml"),
    // Found by attacking the first version of this guard.
    (Root, "cd; cat .config/torii/providers/kubectl/rules.yaml"),
    (Root, "cd -L && cat .config/torii/grants"),
    (Root, "cat sub/../.config/torii/grants"),
    (Root, "cat ~+/../.config/torii/grants"),
    (Root, "cat \"${HOME%/}/.config/torii/grants\""),
    (Root, "cat $PWD/../.config/torii/grants"),
    (Root, "cat $HOME/.config/$'torii'/grants"),
    (Root, "cat ~/{zzz,.config/torii}/grants"),
    (Root, "cat ~/.confi[g]/torii/grants ~/.con[]f]ig/x"),
    (
        Root,
        "xargs cat <<EOF\n{root}/providers/kubectl/rules.yaml\nEOF",
    ),
    (
        Root,
        "apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: ../.config/torii/providers/kubectl/rules.yaml\n@@\n-a\n+b\n*** End Patch\nEOF",
    ),
    (
        Root,
        "python3 -c \"import os; print(os.listdir('{root}'))\"",
    ),
    // Everything else passes.
    // `~/elsewhere` is a link to the root: listing `~/*` lists the root.
    (Root, "ls ~/*"),
    (Root, "cd .. && ls *"),
    (Root, "cat c*/providers/kubectl/rules.yaml"),
    (
        Root,
        "cat ${XDG_CONFIG_HOME:-$HOME/.config}/torii/providers/kubectl/rules.yaml",
    ),
    (
        Root,
        "cd ${XDG_CONFIG_HOME:-$HOME/.config} && cat torii/grants",
    ),
    (Root, "cat {~,/x}/.config/torii/grants"),
    (Root, "cat ~/.con{f..f}ig/torii/grants"),
    (
        Root,
        "cd src && cat /proc/self/cwd/../../.config/torii/grants",
    ),
    (Root, "builtin cd; cat .config/torii/grants"),
    (Root, "cd /tmp && cat ~-/../.config/torii/grants"),
    (Root, "shopt -s dotglob; cat ~/a/../*/torii/grants"),
    (Root, "X=a:~/.config/torii/grants; cat \"${X#a:}\""),
    (
        Root,
        "python3 -c \"import os; os.system('cat ~/.config/torii/grants')\"",
    ),
    (Root, "cat ~/$'\\x2e'config/torii/grants"),
    (Root, "cd ~ && cat $PWD/.config/torii/grants"),
    (Root, "cd ~; cd /tmp; cat $OLDPWD/.config/torii/grants"),
    (Root, "tar -C ~ -cf - .config/torii | tar -tf -"),
    (Root, "env -C ~ cat .config/torii/grants"),
    (
        Root,
        "git -C ~ diff --no-index .config/torii/grants /dev/null",
    ),
    (Root, "H=$HOME; cat $H/.config/torii/grants"),
    (Root, "D=.config; cat ~/$D/torii/grants"),
    (Root, "cat ${HOME%\\}}/.config/torii/grants"),
    (Root, "GLOBIGNORE=x; cat ~/*/torii/grants"),
    (Root, "shopt -s dot''glob; cat ~/a/../*/torii/grants"),
    (
        Allow,
        "cat > src/App.tsx <<'EOF'\nimport { a0, b0 } from './m0';\nimport { a1, b1 } from './m1';\nimport { a2, b2 } from './m2';\nimport { a3, b3 } from './m3';\nimport { a4, b4 } from './m4';\nimport { a5, b5 } from './m5';\nimport { a6, b6 } from './m6';\nimport { a7, b7 } from './m7';\nimport { a8, b8 } from './m8';\nimport { a9, b9 } from './m9';\nimport { a10, b10 } from './m10';\nimport { a11, b11 } from './m11';\nexport const App = () => { return null; };\nEOF",
    ),
    (
        Allow,
        "cd src; ls; cd components; ls; cd ../utils; ls; cd ../..; cd sub; make; cd lib; ls; cd ../..; cd docs; ls",
    ),
    (
        Allow,
        "git commit -m 'fix: respect XDG_CONFIG_HOME (~/.config by default)'",
    ),
    (Allow, "grep -rn '~/.config' src/"),
    (Allow, "alias ll='ls -la'; ll src"),
    (Root, "cat ~/.confi[g'`']/torii/grants"),
    (Root, "cat \"${HOME%/*}/${HOME##*/}/.config/torii/grants\""),
    (Root, "cd \"${PWD%/*}\" && cat .config/torii/grants"),
    (Root, "cd ~; cd /tmp; cd -; cat .config/torii/grants"),
    (Root, "cp -r ~/.confi[g\\ ] /tmp/s"),
    (Root, "curl file://localhost$HOME/.config/torii/grants"),
    (Root, "curl file://{home}/%2econfig/torii/grants"),
    (Root, "sudo -D ~ cat .config/torii/grants"),
    (Allow, "git log --grep='~/.config'"),
    (Allow, "rg -F '$HOME/.config' src"),
    (Allow, "echo '$HOME/.config'"),
    (
        Allow,
        "cat > NOTES.md <<'EOF'\n- src/module0/file0.rs and ../docs/page0.md\n- src/module1/file1.rs and ../docs/page1.md\n- src/module2/file2.rs and ../docs/page2.md\n- src/module3/file3.rs and ../docs/page3.md\n- src/module4/file4.rs and ../docs/page4.md\n- src/module5/file5.rs and ../docs/page5.md\n- src/module6/file6.rs and ../docs/page6.md\n- src/module7/file7.rs and ../docs/page7.md\n- src/module8/file8.rs and ../docs/page8.md\n- src/module9/file9.rs and ../docs/page9.md\n- src/module10/file10.rs and ../docs/page10.md\n- src/module11/file11.rs and ../docs/page11.md\n- src/module12/file12.rs and ../docs/page12.md\n- src/module13/file13.rs and ../docs/page13.md\n- src/module14/file14.rs and ../docs/page14.md\n- src/module15/file15.rs and ../docs/page15.md\n- src/module16/file16.rs and ../docs/page16.md\n- src/module17/file17.rs and ../docs/page17.md\n- src/module18/file18.rs and ../docs/page18.md\n- src/module19/file19.rs and ../docs/page19.md\n- src/module20/file20.rs and ../docs/page20.md\n- src/module21/file21.rs and ../docs/page21.md\n- src/module22/file22.rs and ../docs/page22.md\n- src/module23/file23.rs and ../docs/page23.md\n- src/module24/file24.rs and ../docs/page24.md\n- src/module25/file25.rs and ../docs/page25.md\n- src/module26/file26.rs and ../docs/page26.md\n- src/module27/file27.rs and ../docs/page27.md\n- src/module28/file28.rs and ../docs/page28.md\n- src/module29/file29.rs and ../docs/page29.md\n- src/module30/file30.rs and ../docs/page30.md\n- src/module31/file31.rs and ../docs/page31.md\n- src/module32/file32.rs and ../docs/page32.md\n- src/module33/file33.rs and ../docs/page33.md\n- src/module34/file34.rs and ../docs/page34.md\n- src/module35/file35.rs and ../docs/page35.md\n- src/module36/file36.rs and ../docs/page36.md\n- src/module37/file37.rs and ../docs/page37.md\n- src/module38/file38.rs and ../docs/page38.md\n- src/module39/file39.rs and ../docs/page39.md\n- src/module40/file40.rs and ../docs/page40.md\n- src/module41/file41.rs and ../docs/page41.md\n- src/module42/file42.rs and ../docs/page42.md\n- src/module43/file43.rs and ../docs/page43.md\n- src/module44/file44.rs and ../docs/page44.md\n- src/module45/file45.rs and ../docs/page45.md\n- src/module46/file46.rs and ../docs/page46.md\n- src/module47/file47.rs and ../docs/page47.md\n- src/module48/file48.rs and ../docs/page48.md\n- src/module49/file49.rs and ../docs/page49.md\n- src/module50/file50.rs and ../docs/page50.md\n- src/module51/file51.rs and ../docs/page51.md\n- src/module52/file52.rs and ../docs/page52.md\n- src/module53/file53.rs and ../docs/page53.md\n- src/module54/file54.rs and ../docs/page54.md\n- src/module55/file55.rs and ../docs/page55.md\n- src/module56/file56.rs and ../docs/page56.md\n- src/module57/file57.rs and ../docs/page57.md\n- src/module58/file58.rs and ../docs/page58.md\n- src/module59/file59.rs and ../docs/page59.md\n- src/module60/file60.rs and ../docs/page60.md\n- src/module61/file61.rs and ../docs/page61.md\n- src/module62/file62.rs and ../docs/page62.md\n- src/module63/file63.rs and ../docs/page63.md\n- src/module64/file64.rs and ../docs/page64.md\n- src/module65/file65.rs and ../docs/page65.md\n- src/module66/file66.rs and ../docs/page66.md\n- src/module67/file67.rs and ../docs/page67.md\n- src/module68/file68.rs and ../docs/page68.md\n- src/module69/file69.rs and ../docs/page69.md\n- src/module70/file70.rs and ../docs/page70.md\n- src/module71/file71.rs and ../docs/page71.md\n- src/module72/file72.rs and ../docs/page72.md\n- src/module73/file73.rs and ../docs/page73.md\n- src/module74/file74.rs and ../docs/page74.md\n- src/module75/file75.rs and ../docs/page75.md\n- src/module76/file76.rs and ../docs/page76.md\n- src/module77/file77.rs and ../docs/page77.md\n- src/module78/file78.rs and ../docs/page78.md\n- src/module79/file79.rs and ../docs/page79.md\n- src/module80/file80.rs and ../docs/page80.md\n- src/module81/file81.rs and ../docs/page81.md\n- src/module82/file82.rs and ../docs/page82.md\n- src/module83/file83.rs and ../docs/page83.md\n- src/module84/file84.rs and ../docs/page84.md\n- src/module85/file85.rs and ../docs/page85.md\n- src/module86/file86.rs and ../docs/page86.md\n- src/module87/file87.rs and ../docs/page87.md\n- src/module88/file88.rs and ../docs/page88.md\n- src/module89/file89.rs and ../docs/page89.md\n- src/module90/file90.rs and ../docs/page90.md\n- src/module91/file91.rs and ../docs/page91.md\n- src/module92/file92.rs and ../docs/page92.md\n- src/module93/file93.rs and ../docs/page93.md\n- src/module94/file94.rs and ../docs/page94.md\n- src/module95/file95.rs and ../docs/page95.md\n- src/module96/file96.rs and ../docs/page96.md\n- src/module97/file97.rs and ../docs/page97.md\n- src/module98/file98.rs and ../docs/page98.md\n- src/module99/file99.rs and ../docs/page99.md\n- src/module100/file100.rs and ../docs/page100.md\n- src/module101/file101.rs and ../docs/page101.md\n- src/module102/file102.rs and ../docs/page102.md\n- src/module103/file103.rs and ../docs/page103.md\n- src/module104/file104.rs and ../docs/page104.md\n- src/module105/file105.rs and ../docs/page105.md\n- src/module106/file106.rs and ../docs/page106.md\n- src/module107/file107.rs and ../docs/page107.md\n- src/module108/file108.rs and ../docs/page108.md\n- src/module109/file109.rs and ../docs/page109.md\n- src/module110/file110.rs and ../docs/page110.md\n- src/module111/file111.rs and ../docs/page111.md\n- src/module112/file112.rs and ../docs/page112.md\n- src/module113/file113.rs and ../docs/page113.md\n- src/module114/file114.rs and ../docs/page114.md\n- src/module115/file115.rs and ../docs/page115.md\n- src/module116/file116.rs and ../docs/page116.md\n- src/module117/file117.rs and ../docs/page117.md\n- src/module118/file118.rs and ../docs/page118.md\n- src/module119/file119.rs and ../docs/page119.md\n- src/module120/file120.rs and ../docs/page120.md\n- src/module121/file121.rs and ../docs/page121.md\n- src/module122/file122.rs and ../docs/page122.md\n- src/module123/file123.rs and ../docs/page123.md\n- src/module124/file124.rs and ../docs/page124.md\n- src/module125/file125.rs and ../docs/page125.md\n- src/module126/file126.rs and ../docs/page126.md\n- src/module127/file127.rs and ../docs/page127.md\n- src/module128/file128.rs and ../docs/page128.md\n- src/module129/file129.rs and ../docs/page129.md\n- src/module130/file130.rs and ../docs/page130.md\n- src/module131/file131.rs and ../docs/page131.md\n- src/module132/file132.rs and ../docs/page132.md\n- src/module133/file133.rs and ../docs/page133.md\n- src/module134/file134.rs and ../docs/page134.md\n- src/module135/file135.rs and ../docs/page135.md\n- src/module136/file136.rs and ../docs/page136.md\n- src/module137/file137.rs and ../docs/page137.md\n- src/module138/file138.rs and ../docs/page138.md\n- src/module139/file139.rs and ../docs/page139.md\n- src/module140/file140.rs and ../docs/page140.md\n- src/module141/file141.rs and ../docs/page141.md\n- src/module142/file142.rs and ../docs/page142.md\n- src/module143/file143.rs and ../docs/page143.md\n- src/module144/file144.rs and ../docs/page144.md\n- src/module145/file145.rs and ../docs/page145.md\n- src/module146/file146.rs and ../docs/page146.md\n- src/module147/file147.rs and ../docs/page147.md\n- src/module148/file148.rs and ../docs/page148.md\n- src/module149/file149.rs and ../docs/page149.md\n- src/module150/file150.rs and ../docs/page150.md\n- src/module151/file151.rs and ../docs/page151.md\n- src/module152/file152.rs and ../docs/page152.md\n- src/module153/file153.rs and ../docs/page153.md\n- src/module154/file154.rs and ../docs/page154.md\n- src/module155/file155.rs and ../docs/page155.md\n- src/module156/file156.rs and ../docs/page156.md\n- src/module157/file157.rs and ../docs/page157.md\n- src/module158/file158.rs and ../docs/page158.md\n- src/module159/file159.rs and ../docs/page159.md\n- src/module160/file160.rs and ../docs/page160.md\n- src/module161/file161.rs and ../docs/page161.md\n- src/module162/file162.rs and ../docs/page162.md\n- src/module163/file163.rs and ../docs/page163.md\n- src/module164/file164.rs and ../docs/page164.md\n- src/module165/file165.rs and ../docs/page165.md\n- src/module166/file166.rs and ../docs/page166.md\n- src/module167/file167.rs and ../docs/page167.md\n- src/module168/file168.rs and ../docs/page168.md\n- src/module169/file169.rs and ../docs/page169.md\n- src/module170/file170.rs and ../docs/page170.md\n- src/module171/file171.rs and ../docs/page171.md\n- src/module172/file172.rs and ../docs/page172.md\n- src/module173/file173.rs and ../docs/page173.md\n- src/module174/file174.rs and ../docs/page174.md\n- src/module175/file175.rs and ../docs/page175.md\n- src/module176/file176.rs and ../docs/page176.md\n- src/module177/file177.rs and ../docs/page177.md\n- src/module178/file178.rs and ../docs/page178.md\n- src/module179/file179.rs and ../docs/page179.md\n- src/module180/file180.rs and ../docs/page180.md\n- src/module181/file181.rs and ../docs/page181.md\n- src/module182/file182.rs and ../docs/page182.md\n- src/module183/file183.rs and ../docs/page183.md\n- src/module184/file184.rs and ../docs/page184.md\n- src/module185/file185.rs and ../docs/page185.md\n- src/module186/file186.rs and ../docs/page186.md\n- src/module187/file187.rs and ../docs/page187.md\n- src/module188/file188.rs and ../docs/page188.md\n- src/module189/file189.rs and ../docs/page189.md\n- src/module190/file190.rs and ../docs/page190.md\n- src/module191/file191.rs and ../docs/page191.md\n- src/module192/file192.rs and ../docs/page192.md\n- src/module193/file193.rs and ../docs/page193.md\n- src/module194/file194.rs and ../docs/page194.md\n- src/module195/file195.rs and ../docs/page195.md\n- src/module196/file196.rs and ../docs/page196.md\n- src/module197/file197.rs and ../docs/page197.md\n- src/module198/file198.rs and ../docs/page198.md\n- src/module199/file199.rs and ../docs/page199.md\n- src/module200/file200.rs and ../docs/page200.md\n- src/module201/file201.rs and ../docs/page201.md\n- src/module202/file202.rs and ../docs/page202.md\n- src/module203/file203.rs and ../docs/page203.md\n- src/module204/file204.rs and ../docs/page204.md\n- src/module205/file205.rs and ../docs/page205.md\n- src/module206/file206.rs and ../docs/page206.md\n- src/module207/file207.rs and ../docs/page207.md\n- src/module208/file208.rs and ../docs/page208.md\n- src/module209/file209.rs and ../docs/page209.md\n- src/module210/file210.rs and ../docs/page210.md\n- src/module211/file211.rs and ../docs/page211.md\n- src/module212/file212.rs and ../docs/page212.md\n- src/module213/file213.rs and ../docs/page213.md\n- src/module214/file214.rs and ../docs/page214.md\n- src/module215/file215.rs and ../docs/page215.md\n- src/module216/file216.rs and ../docs/page216.md\n- src/module217/file217.rs and ../docs/page217.md\n- src/module218/file218.rs and ../docs/page218.md\n- src/module219/file219.rs and ../docs/page219.md\n- src/module220/file220.rs and ../docs/page220.md\n- src/module221/file221.rs and ../docs/page221.md\n- src/module222/file222.rs and ../docs/page222.md\n- src/module223/file223.rs and ../docs/page223.md\n- src/module224/file224.rs and ../docs/page224.md\n- src/module225/file225.rs and ../docs/page225.md\n- src/module226/file226.rs and ../docs/page226.md\n- src/module227/file227.rs and ../docs/page227.md\n- src/module228/file228.rs and ../docs/page228.md\n- src/module229/file229.rs and ../docs/page229.md\n- src/module230/file230.rs and ../docs/page230.md\n- src/module231/file231.rs and ../docs/page231.md\n- src/module232/file232.rs and ../docs/page232.md\n- src/module233/file233.rs and ../docs/page233.md\n- src/module234/file234.rs and ../docs/page234.md\n- src/module235/file235.rs and ../docs/page235.md\n- src/module236/file236.rs and ../docs/page236.md\n- src/module237/file237.rs and ../docs/page237.md\n- src/module238/file238.rs and ../docs/page238.md\n- src/module239/file239.rs and ../docs/page239.md\n- src/module240/file240.rs and ../docs/page240.md\n- src/module241/file241.rs and ../docs/page241.md\n- src/module242/file242.rs and ../docs/page242.md\n- src/module243/file243.rs and ../docs/page243.md\n- src/module244/file244.rs and ../docs/page244.md\n- src/module245/file245.rs and ../docs/page245.md\n- src/module246/file246.rs and ../docs/page246.md\n- src/module247/file247.rs and ../docs/page247.md\n- src/module248/file248.rs and ../docs/page248.md\n- src/module249/file249.rs and ../docs/page249.md\n- src/module250/file250.rs and ../docs/page250.md\n- src/module251/file251.rs and ../docs/page251.md\n- src/module252/file252.rs and ../docs/page252.md\n- src/module253/file253.rs and ../docs/page253.md\n- src/module254/file254.rs and ../docs/page254.md\n- src/module255/file255.rs and ../docs/page255.md\n- src/module256/file256.rs and ../docs/page256.md\n- src/module257/file257.rs and ../docs/page257.md\n- src/module258/file258.rs and ../docs/page258.md\n- src/module259/file259.rs and ../docs/page259.md\n- src/module260/file260.rs and ../docs/page260.md\n- src/module261/file261.rs and ../docs/page261.md\n- src/module262/file262.rs and ../docs/page262.md\n- src/module263/file263.rs and ../docs/page263.md\n- src/module264/file264.rs and ../docs/page264.md\n- src/module265/file265.rs and ../docs/page265.md\n- src/module266/file266.rs and ../docs/page266.md\n- src/module267/file267.rs and ../docs/page267.md\n- src/module268/file268.rs and ../docs/page268.md\n- src/module269/file269.rs and ../docs/page269.md\n- src/module270/file270.rs and ../docs/page270.md\n- src/module271/file271.rs and ../docs/page271.md\n- src/module272/file272.rs and ../docs/page272.md\n- src/module273/file273.rs and ../docs/page273.md\n- src/module274/file274.rs and ../docs/page274.md\n- src/module275/file275.rs and ../docs/page275.md\n- src/module276/file276.rs and ../docs/page276.md\n- src/module277/file277.rs and ../docs/page277.md\n- src/module278/file278.rs and ../docs/page278.md\n- src/module279/file279.rs and ../docs/page279.md\n- src/module280/file280.rs and ../docs/page280.md\n- src/module281/file281.rs and ../docs/page281.md\n- src/module282/file282.rs and ../docs/page282.md\n- src/module283/file283.rs and ../docs/page283.md\n- src/module284/file284.rs and ../docs/page284.md\n- src/module285/file285.rs and ../docs/page285.md\n- src/module286/file286.rs and ../docs/page286.md\n- src/module287/file287.rs and ../docs/page287.md\n- src/module288/file288.rs and ../docs/page288.md\n- src/module289/file289.rs and ../docs/page289.md\n- src/module290/file290.rs and ../docs/page290.md\n- src/module291/file291.rs and ../docs/page291.md\n- src/module292/file292.rs and ../docs/page292.md\n- src/module293/file293.rs and ../docs/page293.md\n- src/module294/file294.rs and ../docs/page294.md\n- src/module295/file295.rs and ../docs/page295.md\n- src/module296/file296.rs and ../docs/page296.md\n- src/module297/file297.rs and ../docs/page297.md\n- src/module298/file298.rs and ../docs/page298.md\n- src/module299/file299.rs and ../docs/page299.md\n- src/module300/file300.rs and ../docs/page300.md\n- src/module301/file301.rs and ../docs/page301.md\n- src/module302/file302.rs and ../docs/page302.md\n- src/module303/file303.rs and ../docs/page303.md\n- src/module304/file304.rs and ../docs/page304.md\n- src/module305/file305.rs and ../docs/page305.md\n- src/module306/file306.rs and ../docs/page306.md\n- src/module307/file307.rs and ../docs/page307.md\n- src/module308/file308.rs and ../docs/page308.md\n- src/module309/file309.rs and ../docs/page309.md\n- src/module310/file310.rs and ../docs/page310.md\n- src/module311/file311.rs and ../docs/page311.md\n- src/module312/file312.rs and ../docs/page312.md\n- src/module313/file313.rs and ../docs/page313.md\n- src/module314/file314.rs and ../docs/page314.md\n- src/module315/file315.rs and ../docs/page315.md\n- src/module316/file316.rs and ../docs/page316.md\n- src/module317/file317.rs and ../docs/page317.md\n- src/module318/file318.rs and ../docs/page318.md\n- src/module319/file319.rs and ../docs/page319.md\n- src/module320/file320.rs and ../docs/page320.md\n- src/module321/file321.rs and ../docs/page321.md\n- src/module322/file322.rs and ../docs/page322.md\n- src/module323/file323.rs and ../docs/page323.md\n- src/module324/file324.rs and ../docs/page324.md\n- src/module325/file325.rs and ../docs/page325.md\n- src/module326/file326.rs and ../docs/page326.md\n- src/module327/file327.rs and ../docs/page327.md\n- src/module328/file328.rs and ../docs/page328.md\n- src/module329/file329.rs and ../docs/page329.md\n- src/module330/file330.rs and ../docs/page330.md\n- src/module331/file331.rs and ../docs/page331.md\n- src/module332/file332.rs and ../docs/page332.md\n- src/module333/file333.rs and ../docs/page333.md\n- src/module334/file334.rs and ../docs/page334.md\n- src/module335/file335.rs and ../docs/page335.md\n- src/module336/file336.rs and ../docs/page336.md\n- src/module337/file337.rs and ../docs/page337.md\n- src/module338/file338.rs and ../docs/page338.md\n- src/module339/file339.rs and ../docs/page339.md\n- src/module340/file340.rs and ../docs/page340.md\n- src/module341/file341.rs and ../docs/page341.md\n- src/module342/file342.rs and ../docs/page342.md\n- src/module343/file343.rs and ../docs/page343.md\n- src/module344/file344.rs and ../docs/page344.md\n- src/module345/file345.rs and ../docs/page345.md\n- src/module346/file346.rs and ../docs/page346.md\n- src/module347/file347.rs and ../docs/page347.md\n- src/module348/file348.rs and ../docs/page348.md\n- src/module349/file349.rs and ../docs/page349.md\n- src/module350/file350.rs and ../docs/page350.md\n- src/module351/file351.rs and ../docs/page351.md\n- src/module352/file352.rs and ../docs/page352.md\n- src/module353/file353.rs and ../docs/page353.md\n- src/module354/file354.rs and ../docs/page354.md\n- src/module355/file355.rs and ../docs/page355.md\n- src/module356/file356.rs and ../docs/page356.md\n- src/module357/file357.rs and ../docs/page357.md\n- src/module358/file358.rs and ../docs/page358.md\n- src/module359/file359.rs and ../docs/page359.md\n- src/module360/file360.rs and ../docs/page360.md\n- src/module361/file361.rs and ../docs/page361.md\n- src/module362/file362.rs and ../docs/page362.md\n- src/module363/file363.rs and ../docs/page363.md\n- src/module364/file364.rs and ../docs/page364.md\n- src/module365/file365.rs and ../docs/page365.md\n- src/module366/file366.rs and ../docs/page366.md\n- src/module367/file367.rs and ../docs/page367.md\n- src/module368/file368.rs and ../docs/page368.md\n- src/module369/file369.rs and ../docs/page369.md\n- src/module370/file370.rs and ../docs/page370.md\n- src/module371/file371.rs and ../docs/page371.md\n- src/module372/file372.rs and ../docs/page372.md\n- src/module373/file373.rs and ../docs/page373.md\n- src/module374/file374.rs and ../docs/page374.md\n- src/module375/file375.rs and ../docs/page375.md\n- src/module376/file376.rs and ../docs/page376.md\n- src/module377/file377.rs and ../docs/page377.md\n- src/module378/file378.rs and ../docs/page378.md\n- src/module379/file379.rs and ../docs/page379.md\n- src/module380/file380.rs and ../docs/page380.md\n- src/module381/file381.rs and ../docs/page381.md\n- src/module382/file382.rs and ../docs/page382.md\n- src/module383/file383.rs and ../docs/page383.md\n- src/module384/file384.rs and ../docs/page384.md\n- src/module385/file385.rs and ../docs/page385.md\n- src/module386/file386.rs and ../docs/page386.md\n- src/module387/file387.rs and ../docs/page387.md\n- src/module388/file388.rs and ../docs/page388.md\n- src/module389/file389.rs and ../docs/page389.md\n- src/module390/file390.rs and ../docs/page390.md\n- src/module391/file391.rs and ../docs/page391.md\n- src/module392/file392.rs and ../docs/page392.md\n- src/module393/file393.rs and ../docs/page393.md\n- src/module394/file394.rs and ../docs/page394.md\n- src/module395/file395.rs and ../docs/page395.md\n- src/module396/file396.rs and ../docs/page396.md\n- src/module397/file397.rs and ../docs/page397.md\n- src/module398/file398.rs and ../docs/page398.md\n- src/module399/file399.rs and ../docs/page399.md\nEOF",
    ),
    (Root, "cat ~/.confi[g$'\\n']/torii/grants"),
    (Root, "curl file://LOCALHOST$HOME/.config/torii/grants"),
    (Root, "OLDPWD=~; cd -; cat .config/torii/grants"),
    // (`*` in the project would match `clink`, a link to the root.)
    (Allow, "for d in src/*/; do (cd \"$d\" && ls -a); done"),
    (Allow, "cd \"$(git rev-parse --show-toplevel)\" && ls src/*"),
    (Allow, "cd \"$dir\" && cat src/*/package.json"),
    (Allow, "ls ~/project/src/*"),
    (Allow, "du -sh ~/a/*"),
    (Allow, "ls /tmp/**"),
    (Allow, "cd .. && ls project"),
    (Allow, "ls"),
    (Allow, "ls -la ~"),
    (Allow, "ls /"),
    (Allow, "cat README.md"),
    (Allow, "git status && git diff"),
    (Allow, "cargo build --release"),
    (Allow, "grep -r torii src/"),
    (Allow, "cat ~/.config/git/config"),
    (Allow, "echo ~/.config/torii-notes"),
    (Allow, "cd /tmp && ls"),
    (Allow, "find . -name '*.rs'"),
    (Allow, "cat /etc/hosts"),
    // Paths made only of computed parts, as a loop writes them, are not seen (like `$X`).
    (Allow, "for f in a b; do cat \"$DIR/$f\"; done"),
    (Allow, "cp \"$SRC$NAME\" ."),
    (Allow, "for f in \"$D\"/*; do echo \"$f\"; done"),
    (Allow, "cp \"$src\"/* \"$dst\"/"),
    // A provider's program is still blocked.
    (Denied, "kubectl get pods"),
];

/// File-tool events: a client's tool name and input (paths as the client sends them).
fn file_events() -> Vec<(Expect, &'static str, &'static str, Value)> {
    vec![
        // Claude Code: Read, Write and Edit paths arrive absolute; Glob and Grep paths may not.
        (
            Root,
            "claude",
            "Read",
            json!({"file_path": "{root}/providers/kubectl/grants"}),
        ),
        (
            Root,
            "claude",
            "Read",
            json!({"file_path": "{home}/.config/torii/identities/lab/auth/session.json"}),
        ),
        (
            Root,
            "claude",
            "Write",
            json!({"file_path": "{root}/providers/kubectl/rules.yaml", "content": "accept: [delete]\n"}),
        ),
        (
            Root,
            "claude",
            "Edit",
            json!({"file_path": "{home}/.config/torii/settings.yaml", "old_string": "a", "new_string": "b"}),
        ),
        (
            Root,
            "claude",
            "MultiEdit",
            json!({"file_path": "{home}/elsewhere/providers/kubectl/rules.yaml", "edits": []}),
        ),
        (
            Root,
            "claude",
            "NotebookEdit",
            json!({"notebook_path": "{root}/n.ipynb", "new_source": ""}),
        ),
        (
            Root,
            "claude",
            "Glob",
            json!({"pattern": "**/grants", "path": "{home}/.config"}),
        ),
        (
            Root,
            "claude",
            "Glob",
            json!({"pattern": "{home}/.config/torii/**"}),
        ),
        (
            Root,
            "claude",
            "Glob",
            json!({"pattern": "../.config/*/providers/*"}),
        ),
        (
            Root,
            "claude",
            "Grep",
            json!({"pattern": "token", "path": "{root}"}),
        ),
        (
            Root,
            "claude",
            "Grep",
            json!({"pattern": "token", "path": "../.config"}),
        ),
        (
            Allow,
            "claude",
            "Read",
            json!({"file_path": "{home}/project/README.md"}),
        ),
        (
            Allow,
            "claude",
            "Write",
            json!({"file_path": "{home}/project/notes.md", "content": "see ~/.config/torii/grants"}),
        ),
        (
            Allow,
            "claude",
            "Grep",
            json!({"pattern": "torii", "path": "src"}),
        ),
        (Allow, "claude", "Glob", json!({"pattern": "**/*.rs"})),
        (Allow, "claude", "Glob", json!({"pattern": "src/**/*.ts"})),
        (
            Root,
            "claude",
            "Write",
            json!({"file_path": "{root}/x", "content": "x", "command": "true"}),
        ),
        (
            Allow,
            "claude",
            "Grep",
            json!({"pattern": "x", "glob": "src/**/*.rs"}),
        ),
        (
            Allow,
            "gemini",
            "read_many_files",
            json!({"include": ["src/**/*.rs"]}),
        ),
        (
            Root,
            "claude",
            "Read",
            json!({"file_path": "~/.config/torii/settings.yaml"}),
        ),
        (
            Root,
            "claude",
            "Glob",
            json!({"pattern": "*/providers/*/rules.yaml"}),
        ),
        (
            Root,
            "claude",
            "Glob",
            json!({"pattern": ".con{f..f}ig/torii/**", "path": "{home}"}),
        ),
        (
            Allow,
            "claude",
            "Glob",
            json!({"pattern": "*", "path": "{home}"}),
        ),
        (
            Root,
            "claude",
            "Glob",
            json!({"pattern": "{.config/torii,zzz}/*", "path": "{home}"}),
        ),
        (
            Root,
            "gemini",
            "read_file",
            json!({"absolute_path": "{root}/settings.yaml"}),
        ),
        (
            Root,
            "gemini",
            "run_shell_command",
            json!({"command": "cat grants", "dir_path": "{root}"}),
        ),
        // Gemini CLI: relative paths, `dir_path`, globs in `include`.
        (
            Root,
            "gemini",
            "read_file",
            json!({"file_path": "../.config/torii/providers/kubectl/grants"}),
        ),
        (
            Root,
            "gemini",
            "write_file",
            json!({"file_path": "{root}/providers/kubectl/rules.yaml", "content": "x"}),
        ),
        (
            Root,
            "gemini",
            "replace",
            json!({"file_path": "{home}/.config/torii/settings.yaml", "old_string": "a", "new_string": "b"}),
        ),
        (
            Root,
            "gemini",
            "read_many_files",
            json!({"include": ["README.md", "{home}/.config/torii/**"]}),
        ),
        (
            Root,
            "gemini",
            "glob",
            json!({"pattern": "*/grants", "dir_path": "{root}/providers"}),
        ),
        (
            Root,
            "gemini",
            "grep_search",
            json!({"pattern": "secret", "dir_path": "{home}/.config"}),
        ),
        (
            Root,
            "gemini",
            "list_directory",
            json!({"dir_path": "{home}/elsewhere"}),
        ),
        (
            Allow,
            "gemini",
            "read_file",
            json!({"file_path": "README.md"}),
        ),
        (Allow, "gemini", "list_directory", json!({"dir_path": "."})),
        (
            Allow,
            "gemini",
            "grep_search",
            json!({"pattern": "torii", "dir_path": "src", "include_pattern": "*.rs"}),
        ),
        // Codex: the files of a patch, and an image.
        (
            Root,
            "codex",
            "apply_patch",
            json!({"command": "*** Begin Patch\n*** Update File: ../.config/torii/providers/kubectl/rules.yaml\n@@\n-deny: [delete]\n+deny: []\n*** End Patch\n"}),
        ),
        (
            Root,
            "codex",
            "apply_patch",
            json!({"command": "*** Begin Patch\n*** Add File: notes.md\n+x\n*** Move to: {root}/x\n*** End Patch\n"}),
        ),
        (Root, "codex", "view_image", json!({"path": "{root}/x.png"})),
        (
            Allow,
            "codex",
            "apply_patch",
            json!({"command": "*** Begin Patch\n*** Add File: notes.md\n+~/.config/torii\n*** End Patch\n"}),
        ),
    ]
}

struct Layout {
    setup: Setup,
    project: PathBuf,
    pinned: PathBuf,
}

impl Layout {
    fn new() -> Layout {
        let setup = Setup::new();
        install_provider(
            &setup.root,
            "kubectl",
            &simple_provider("kubectl", ""),
            "deny: []\naccept: []\n",
        );
        let real = PathBuf::from(setup.root_dir());
        let config = setup.home.join(".config");
        std::fs::create_dir_all(&config).unwrap();
        let pinned = config.join("torii");
        std::os::unix::fs::symlink(&real, &pinned).unwrap();
        std::os::unix::fs::symlink(&real, setup.home.join("elsewhere")).unwrap();
        let project = setup.home.join("project");
        std::fs::create_dir_all(project.join("src")).unwrap();
        // `sub/..` is the home directory for the kernel, the project for a lexical reading.
        std::fs::create_dir_all(setup.home.join("a")).unwrap();
        std::os::unix::fs::symlink(setup.home.join("a"), project.join("sub")).unwrap();
        // A link to the root inside the project, reached by globs.
        std::os::unix::fs::symlink(&real, project.join("clink")).unwrap();
        std::fs::write(project.join("README.md"), "hello\n").unwrap();
        Layout {
            setup,
            project,
            pinned,
        }
    }

    fn fill(&self, text: &str) -> String {
        text.replace("{root}", &self.setup.root_dir())
            .replace("{home}", &self.setup.home.display().to_string())
            .replace("{exe}", &self.setup.exe())
    }

    /// Runs the hook as the client's installed command does, in the project directory.
    fn hook(&self, agent: &str, input: &Value) -> String {
        hook_at(&self.setup, &self.pinned, &self.project, agent, input)
    }
}

impl Layout {
    /// Where Antigravity runs its hooks from: the folder of `hooks.json`.
    fn antigravity_hooks_dir(&self) -> PathBuf {
        let dir = self.setup.home.join(".gemini/config");
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// Antigravity's hook, run from its hooks folder as Antigravity runs it, on `input`.
    fn antigravity(&self, input: &Value) -> String {
        hook_at(
            &self.setup,
            &self.pinned,
            &self.antigravity_hooks_dir(),
            "antigravity",
            input,
        )
    }
}

fn hook_at(setup: &Setup, pinned: &Path, cwd: &Path, agent: &str, input: &Value) -> String {
    let (out, code) = setup.hook_with(agent, pinned, &input.to_string(), |command| {
        command
            .env_remove("XDG_CONFIG_HOME")
            .env("HOME", &setup.home)
            .env("TORII_CONFIG_DIR", pinned)
            .current_dir(cwd);
    });
    assert_eq!(code, 0);
    out
}

/// The deny reason in `agent`'s answer, if it denied.
fn reason(agent: &str, out: &str) -> Option<String> {
    let answer: Value = serde_json::from_str(out).ok()?;
    let reason = match agent {
        "claude" | "codex" => (answer["hookSpecificOutput"]["permissionDecision"] == "deny")
            .then(|| answer["hookSpecificOutput"]["permissionDecisionReason"].as_str())?,
        "cursor" => (answer["permission"] == "deny").then(|| answer["user_message"].as_str())?,
        _ => (answer["decision"] == "deny").then(|| answer["reason"].as_str())?,
    };
    reason.map(str::to_string)
}

fn shell_input(agent: &str, command: &str, cwd: &Path) -> Value {
    match agent {
        "claude" | "codex" => json!({"hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": command}, "cwd": cwd}),
        "gemini" => json!({"hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
            "tool_input": {"command": command}, "cwd": cwd}),
        "cursor" => {
            json!({"hook_event_name": "beforeShellExecution", "command": command, "cwd": cwd})
        }
        // Antigravity names the command's directory in its arguments (`Cwd`).
        "antigravity" => json!({"toolCall": {"name": "run_command",
            "args": {"CommandLine": command, "Cwd": cwd}}, "workspacePaths": [cwd]}),
        other => panic!("no hook for {other}"),
    }
}

fn right(expect: Expect, agent: &str, out: &str) -> bool {
    match (expect, reason(agent, out)) {
        (Human, Some(reason)) => reason.contains("are the human's"),
        (Root, Some(reason)) => reason.contains("names Torii's configuration"),
        (Denied, Some(_)) => true,
        (Allow, None) => out.is_empty() || (agent == "antigravity" && out.contains("\"ask\"")),
        _ => false,
    }
}

#[test]
fn the_hook_keeps_every_clients_shell_out_of_the_control_plane() {
    let layout = Layout::new();
    assert!(SHELL.len() >= 60, "{} lines", SHELL.len());
    let mut failures = Vec::new();
    for (expect, line) in SHELL {
        let line = layout.fill(line);
        for agent in ["claude", "codex", "gemini", "cursor", "antigravity"] {
            let out = layout.hook(agent, &shell_input(agent, &line, &layout.project));
            if !right(*expect, agent, &out) {
                failures.push(format!("{expect:?} via {agent}: {line:?} -> {out}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_hook_keeps_file_tools_out_of_the_root() {
    let layout = Layout::new();
    let events = file_events();
    assert!(events.len() >= 20, "{} events", events.len());
    let mut failures = Vec::new();
    for (expect, agent, tool, input) in events {
        let input: Value = serde_json::from_str(&layout.fill(&input.to_string())).unwrap();
        let event = if agent == "gemini" {
            "BeforeTool"
        } else {
            "PreToolUse"
        };
        let out = layout.hook(
            agent,
            &json!({"hook_event_name": event, "tool_name": tool, "tool_input": input,
                "cwd": layout.project}),
        );
        if !right(expect, agent, &out) {
            failures.push(format!("{expect:?} via {agent} {tool}: {input} -> {out}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Antigravity runs its hooks from the folder of `hooks.json` (`~/.gemini/config`), and says
/// where the command will run in `toolCall.args.Cwd` (its workspace in `workspacePaths`).
/// Relative paths were read from the hook's own directory, so `cat providers/…/rules.yaml` run
/// in the root passed (regression, found driving Antigravity's own harness).
#[test]
fn antigravity_paths_are_read_from_the_commands_directory() {
    let layout = Layout::new();
    let command = "cat providers/kubectl/rules.yaml > /tmp/leak.txt";
    for input in [
        json!({"toolCall": {"name": "run_command",
            "args": {"CommandLine": command, "Cwd": layout.pinned}},
            "workspacePaths": [layout.project]}),
        // No Cwd: the workspace is where it runs.
        json!({"toolCall": {"name": "run_command", "args": {"CommandLine": command}},
            "workspacePaths": [layout.pinned]}),
    ] {
        let out = layout.antigravity(&input);
        let reason = reason("antigravity", &out).unwrap_or_else(|| panic!("{input}: {out}"));
        assert!(reason.contains("names Torii's configuration"), "{reason}");
    }
    // The same line in the project names nothing of the root.
    let input = json!({"toolCall": {"name": "run_command",
        "args": {"CommandLine": command, "Cwd": layout.project}}});
    let out = layout.antigravity(&input);
    assert!(out.contains("\"ask\""), "{out}");
}

/// Review of the fix above: a second directory in the input (`path` beside `Cwd`, a tool
/// input's `path` beside the client's `cwd`, a top-level member in Cursor's event) chose the
/// base and let the root through; and a directory only a shell can resolve (`~`) was joined
/// literally. Every directory the input names is now a base, and a `~` or `$` one is refused.
#[test]
fn a_shell_line_is_read_from_every_directory_its_input_names() {
    let layout = Layout::new();
    let hooks_dir = layout.antigravity_hooks_dir();
    let command = "cat providers/kubectl/rules.yaml";
    let cases = [
        (
            "antigravity",
            json!({"toolCall": {"name": "run_command",
                "args": {"CommandLine": command, "Cwd": layout.pinned, "path": "/tmp"}}}),
        ),
        (
            "antigravity",
            json!({"toolCall": {"name": "run_command",
                "args": {"CommandLine": command, "Cwd": "~/.config/torii"}},
                "workspacePaths": [layout.project]}),
        ),
        (
            "claude",
            json!({"hook_event_name": "PreToolUse", "tool_name": "Bash",
                "tool_input": {"command": command, "path": "/tmp"}, "cwd": layout.pinned}),
        ),
        (
            "gemini",
            json!({"hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
                "tool_input": {"command": command, "path": "/tmp", "dir_path": layout.pinned},
                "cwd": layout.project}),
        ),
        (
            "cursor",
            json!({"hook_event_name": "beforeShellExecution", "command": command,
                "cwd": layout.pinned, "workdir": "/tmp"}),
        ),
        // A file tool too: the relative file read from the `workdir` the input also names.
        (
            "codex",
            json!({"hook_event_name": "PreToolUse", "tool_name": "view_image",
                "tool_input": {"path": "providers/kubectl/rules.yaml", "workdir": layout.pinned},
                "cwd": layout.project}),
        ),
    ];
    for (agent, input) in &cases {
        let out = hook_at(&layout.setup, &layout.pinned, &hooks_dir, agent, input);
        assert!(reason(agent, &out).is_some(), "{agent}: {input} -> {out}");
    }
    // Control: the same events with the project where the root was name nothing of it.
    let root = serde_json::to_string(&layout.pinned).unwrap();
    let project = serde_json::to_string(&layout.project).unwrap();
    let naming_root = cases
        .iter()
        .filter(|(_, input)| input.to_string().contains(&root));
    assert!(naming_root.clone().count() >= 4);
    for (agent, input) in naming_root {
        let text = input.to_string();
        let moved: Value = serde_json::from_str(&text.replace(&root, &project)).unwrap();
        let out = hook_at(&layout.setup, &layout.pinned, &hooks_dir, agent, &moved);
        assert!(reason(agent, &out).is_none(), "{agent}: {moved} -> {out}");
    }
    // A directory only a shell can resolve is refused however it is spelled.
    let out = layout.antigravity(&json!({"toolCall": {"name": "run_command",
            "args": {"CommandLine": "ls", "Cwd": "$HOME/.config/torii"}}}));
    assert!(reason("antigravity", &out).is_some(), "{out}");
}

/// Antigravity's file tools (as its harness names them, with PascalCase arguments) reach the
/// hook too: reading, writing or replacing a file of the root, by an absolute path or one
/// relative to the workspace, is denied; a file of the project is not.
#[test]
fn antigravity_file_tools_are_kept_out_of_the_root() {
    let layout = Layout::new();
    let rules = layout.pinned.join("providers/kubectl/rules.yaml");
    let event = |tool: &str, args: Value, workspace: &Path| json!({"toolCall": {"name": tool, "args": args}, "workspacePaths": [workspace]});
    for input in [
        event("view_file", json!({"AbsolutePath": rules}), &layout.project),
        event(
            "write_to_file",
            json!({"TargetFile": rules, "CodeContent": "accept: [\"*\"]"}),
            &layout.project,
        ),
        event(
            "replace_file_content",
            json!({"TargetFile": "providers/kubectl/rules.yaml", "TargetContent": "x"}),
            &layout.pinned,
        ),
        event(
            "list_dir",
            json!({"DirectoryPath": layout.pinned}),
            &layout.project,
        ),
    ] {
        let out = layout.antigravity(&input);
        let reason = reason("antigravity", &out).unwrap_or_else(|| panic!("{input}: {out}"));
        assert!(reason.contains("names Torii's configuration"), "{reason}");
    }
    let readme = event(
        "view_file",
        json!({"AbsolutePath": layout.project.join("README.md")}),
        &layout.project,
    );
    let out = layout.antigravity(&readme);
    assert!(out.contains("\"ask\""), "{out}");
}

/// Moving the root aside used to turn the guard off (regression): a hook whose pinned root is
/// missing denies everything and says how to restore or remove it.
#[test]
fn a_hook_whose_root_is_missing_denies_and_says_why() {
    let layout = Layout::new();
    let missing = layout.setup.home.join(".config/moved-away");
    for line in ["ls", "kubectl get pods", "torii doctor"] {
        let out = hook_at(
            &layout.setup,
            &missing,
            &layout.project,
            "claude",
            &shell_input("claude", line, &layout.project),
        );
        let reason = reason("claude", &out).unwrap_or_else(|| panic!("{line}: {out}"));
        assert!(reason.contains("cannot be read"), "{reason}");
        assert!(
            reason.contains("torii agent uninstall claude --hook"),
            "{reason}"
        );
    }
}
