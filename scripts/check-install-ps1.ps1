# install.ps1 against a Windows release archive in <Dist> (scripts/package-windows.ps1), before
# anything is published: <Dist> served the way GitHub serves releases (scripts/release-server.py,
# HTTPS with its own CA, trusted on this machine), installed the three documented ways under
# PowerShell 7 and Windows PowerShell 5.1. The installed torii.exe must say the tag's version.
# Needs python (with pip) and an administrator's right to trust the CA: a CI runner.
# Used by .github/workflows/release.yml and test.yml.
param(
  [Parameter(Mandatory)] [string]$Tag,
  [Parameter(Mandatory)] [string]$Dist
)
$ErrorActionPreference = 'Stop'
$env:RUNNER_TEMP = if ($env:RUNNER_TEMP) { $env:RUNNER_TEMP } else { [IO.Path]::GetTempPath() }

python -m pip install --quiet cryptography
$name = "torii-$Tag-windows-x86_64"
# The entry `torii self upgrade` reads from the zip (forward slash).
python -c "import sys, zipfile; sys.exit(sys.argv[2] not in zipfile.ZipFile(sys.argv[1]).namelist())" "$Dist/$name.zip" "$name/torii.exe"
if ($LASTEXITCODE -ne 0) { throw "$Dist/$name.zip holds no $name/torii.exe" }
$state = Join-Path $env:RUNNER_TEMP release-server
$server = Start-Process python -PassThru -NoNewWindow -ArgumentList @(
  'scripts/release-server.py', $Dist, $Tag, $state)
try {
  for ($i = 0; -not (Test-Path "$state/base.txt"); $i++) {
    if ($server.HasExited -or $i -ge 120) { throw 'the release server did not start' }
    Start-Sleep -Milliseconds 500
  }
  certutil -f -addstore Root "$state/ca.cer" | Out-Null
  if ($LASTEXITCODE -ne 0) { throw 'cannot trust the CA of the release server' }
  $env:TORII_RELEASE_BASE_URL = Get-Content "$state/base.txt"
  # The archive is signed later, by the release workflow's publish job, which alone holds the
  # key; minisign is not on the runner either. What this checks is every other step.
  $env:TORII_NO_SIGNATURE_CHECK = '1'
  $root = $env:TORII_RELEASE_BASE_URL -replace '/releases$', ''
  $want = "torii $($Tag.Substring(1))"
  $dir = Join-Path $env:RUNNER_TEMP 'torii bin'
  function Test-Installed([string]$Exe) {
    $got = & $Exe --version
    if ($got -ne $want) { throw "$Exe --version says '$got', not '$want'" }
  }
  function Get-Listed {
    @([Environment]::GetEnvironmentVariable('Path', 'User') -split ';' | Where-Object { $_ -eq $dir }).Count
  }

  # The saved file with arguments (PowerShell 7); -NoPathUpdate leaves PATH alone.
  ./install.ps1 -InstallDir $dir -NoPathUpdate
  Test-Installed "$dir/torii.exe"
  if ((Get-Listed) -ne 0) { throw '-NoPathUpdate changed the user PATH' }

  # Piped into iex, options from the environment (Windows PowerShell 5.1), twice: each
  # a reinstall, and the user PATH gains the directory once.
  $env:TORII_INSTALL_DIR = $dir
  foreach ($run in 1, 2) {
    $said = powershell -NoProfile -Command "irm $root/install.ps1 | iex" | Out-String
    if ($LASTEXITCODE -ne 0 -or $said -notmatch 'replaced torii') { throw "irm | iex: $said" }
  }
  $env:TORII_INSTALL_DIR = $null
  Test-Installed "$dir/torii.exe"
  if ((Get-Listed) -ne 1) { throw "the user PATH lists $dir $(Get-Listed) times" }

  # A script block with arguments, a chosen version (PowerShell 7).
  & ([scriptblock]::Create((Invoke-RestMethod "$root/install.ps1"))) `
    -Version $Tag -InstallDir "$dir 2" -NoPathUpdate
  Test-Installed "$dir 2/torii.exe"

  # A release location that is not https:// is refused before anything is installed.
  $env:TORII_RELEASE_BASE_URL = 'http://127.0.0.1:9/releases'
  pwsh -NoProfile -File ./install.ps1 -InstallDir "$dir 3"
  if ($LASTEXITCODE -eq 0 -or (Test-Path "$dir 3")) { throw 'install.ps1 took an http:// location' }
  # That failure was the expected one: the step ends with the last exit code.
  $global:LASTEXITCODE = 0
} finally {
  Stop-Process -Id $server.Id -ErrorAction SilentlyContinue
}
